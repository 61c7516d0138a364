import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DomainError } from '../../../common/domain-error';
import { IdPipe } from '../../../common/id.pipe';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import type { AuthedRequest, ClientAccess } from '../../../common/auth-context';
import { Access, Isolation } from '../../../common/isolation';
import { CreateLeadInput, sourceCommentText, UpdateLeadInput } from '../domain/lead';
import { LeadsService } from '../leads.service';
import { LeadReadsService } from '../lead-reads.service';
import { LeadCreateJobsService } from '../lead-create-jobs.service';
import { CreateLeadV2Dto, UpdateLeadV2Dto } from './dto/lead.dto';
import { LeadLookupQueryDto } from './dto/lead-lookup-query.dto';
import { BatchResultView, checkBatchItem, CreateLeadBatchV2Dto } from './dto/lead-batch.dto';
import { UpsertLeadV2Dto, UpsertResultView } from './dto/lead-upsert.dto';
import { LeadBulkService } from '../lead-bulk.service';
import { LeadCallableService } from '../lead-callable.service';
import { LeadCallableView, presentLeadCallable } from './lead-callable.presenter';
import { LOOKUP_KEYS } from '../domain/lead-lookup';
import { AsyncLeadJobView, LeadV2ListItemView, LeadV2View, presentAsyncJob, presentLeadV2, presentLeadV2ListItem } from './lead.presenter';
import { IdempotencyToken } from '../../../common/idempotency/idempotency-token';
import {
  ApiCreated,
  ApiCreatedAtQuery,
  ApiEnvelope,
  ApiEnvelopeList,
  ApiErrors,
  ApiIdParam,
  ApiKeyErrors,
  ApiUpdated,
} from '../../../common/openapi/envelope.decorators';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toCreateInput = (dto: CreateLeadV2Dto): CreateLeadInput => ({ ...dto, sourceComment: sourceCommentText(dto.sourceComment) });
const toUpdateInput = (dto: UpdateLeadV2Dto): UpdateLeadInput => ({ ...dto, sourceComment: sourceCommentText(dto.sourceComment) });

/** A client key reaches only the leads of its client's orders (LeadsService and the others apply its access). */
@ApiTags('leads (v2)')
@ApiKeyErrors()
@Isolation('scoped')
@Controller('v2/lead')
export class LeadsV2Controller {
  constructor(
    private readonly leads: LeadsService,
    private readonly reads: LeadReadsService,
    private readonly createJobs: LeadCreateJobsService,
    private readonly bulk: LeadBulkService,
    private readonly callableNow: LeadCallableService,
  ) {}

  @Post('create')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a lead synchronously; data.id is the new lead',
    description:
      'The phone is normalised to E.164; orderId and orderCode must name the same order; only in-progress statuses. ' +
      'A lead whose phone matches a lead of the same order created within LEAD_DUPLICATE_WINDOW_DAYS is secondary and linked to it. ' +
      "A client key naming an order that is not its client's gets the 400 of an order that does not exist.",
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  create(@Body() dto: CreateLeadV2Dto, @Access() access: ClientAccess, @IdempotencyToken() token?: string) {
    return this.leads.createLead(toCreateInput(dto), access, token);
  }

  @Post('create-batch')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create up to 1,000 leads; data.results has one result per item, in order',
    description:
      'Each item is a body of POST /v2/lead/create/ under every rule of that route; a bad item fails alone ' +
      '({index, success: false, errors}), the others are created ({index, success: true, id}). Items of one phone link to each other ' +
      'in item order and to the latest lead of that phone, as if sent one by one. 400 for the whole request (nothing stored) when ' +
      'the body is not an object, has no leads array, or leads is empty or longer than 1,000. With Idempotency-Key a retry replays the result ' +
      'and never creates an item twice.',
  })
  @ApiEnvelope(BatchResultView)
  @ApiErrors(400, 409, 413)
  async createBatch(@Body() dto: CreateLeadBatchV2Dto, @Access() access: ClientAccess, @IdempotencyToken() token?: string) {
    return this.bulk.createBatch(dto.leads.map(checkBatchItem), access, token);
  }

  @Post('upsert')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: "Create or update by a key: the order's most recent lead whose matchBy field equals the body's is updated, else one is created",
    description:
      "The key is matched within the body's order only; a client key naming an order that is not its client's gets the 400 of an order that does not exist. " +
      `matchBy is one of ${LOOKUP_KEYS.join(', ')}; the body must carry that field (400). A lead found is updated with the body's fields ` +
      'under the rules of POST /v2/lead/update/ (409 past qualifiedLeadsPerDayLimit); none: the body is created under the rules of ' +
      'POST /v2/lead/create/. Concurrent upserts of one key create one lead. data: {id, created}.',
  })
  @ApiEnvelope(UpsertResultView)
  @ApiErrors(400, 409, 413)
  upsert(@Body() dto: UpsertLeadV2Dto, @Access() access: ClientAccess, @IdempotencyToken() token?: string) {
    const { matchBy, ...body } = dto;
    return this.bulk.upsert(toCreateInput(body), matchBy, access, token);
  }

  @Post('create-async')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Queue a lead for creation; data is [] and the X-Job-Id header names the job',
    description:
      'The body shape is checked at once (400); the job is durably queued before the response. A worker then applies the ' +
      'synchronous rules: GET /v2/lead/create-async/{jobId}/ reports queued, done (leadId) or failed (errors). With a client key the order ' +
      "is checked at once: one that does not exist or is not its client's is a 400 naming orderId (no job).",
  })
  @ApiEnvelope('empty', {
    description: 'Queued; data is [] and X-Job-Id names the job',
    headers: { 'X-Job-Id': { description: 'Job id (uuid) for GET /v2/lead/create-async/{jobId}/', schema: { type: 'string', format: 'uuid' } } },
  })
  @ApiErrors(400, 409, 413)
  async createAsync(
    @Body() dto: CreateLeadV2Dto,
    @Access() access: ClientAccess,
    @Req() req: AuthedRequest,
    @Res({ passthrough: true }) res: Response,
    @IdempotencyToken() token?: string,
  ) {
    const { jobId } = await this.createJobs.createLeadAsync(toCreateInput(dto), access, req.apiKey?.id ?? null, token);
    res.setHeader('X-Job-Id', jobId);
  }

  @Get('create-async/:jobId')
  @ApiOperation({
    summary: 'State of an asynchronous lead creation: queued, done (with leadId) or failed (with errors)',
    description:
      'Refuses a jobId that is not a UUID (400); 404 for a job this service does not know. A client key reaches the jobs in its ' +
      "client's orders as they are now, whichever key made them (a job moves with its order); any other is a 404 as well.",
  })
  @ApiEnvelope(AsyncLeadJobView)
  @ApiErrors(400, 404)
  @ApiParam({
    name: 'jobId',
    schema: { type: 'string', format: 'uuid' },
    description: 'the X-Job-Id header of POST /v2/lead/create-async/ (400 when not a UUID, 404 when unknown)',
  })
  async asyncJob(@Param('jobId') jobId: string, @Access() access: ClientAccess) {
    if (!UUID.test(jobId)) throw DomainError.invalidField('jobId', 'must be a UUID');
    return presentAsyncJob(await this.createJobs.getAsyncJob(jobId.toLowerCase(), access));
  }

  @Post('update/:leadId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change the fields sent (customValues, when sent, replaces the whole map, as for orders); data is []',
    description:
      'Refuses invalid fields with 400 naming each (a status id that does not exist, custom values that do not fit their field); ' +
      "404 when the lead does not exist (or, for a client key, is not in its client's orders); 409 when a qualified status would " +
      'pass the order qualifiedLeadsPerDayLimit.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('leadId')
  async update(@Param('leadId', IdPipe) leadId: number, @Body() dto: UpdateLeadV2Dto, @Access() access: ClientAccess) {
    await this.leads.updateLead(leadId, toUpdateInput(dto), access);
  }

  @Get('callable/:leadId')
  @ApiOperation({
    summary: 'Why a lead is or is not callable now (extension): reasons, local time, next callable moment',
    description:
      "Reads the lead's zone, its order's schedule, holidays, autodialing and qualified limit. Refuses an id that is not a positive integer (400); " +
      "404 when no lead has it, or (client key) it is not in its client's orders.",
  })
  @ApiEnvelope(LeadCallableView)
  @ApiErrors(400, 404)
  @ApiIdParam('leadId')
  async callable(@Param('leadId', IdPipe) leadId: number, @Access() access: ClientAccess) {
    return presentLeadCallable(await this.callableNow.callable(leadId, access));
  }

  @Get('detail/:leadId')
  @ApiOperation({
    summary: 'One lead (v2 shape, without previousLeadId/nextLeadId)',
    description: "Refuses an id that is not a positive integer (400); 404 when no lead has it, or (client key) it is not in its client's orders.",
  })
  @ApiEnvelope(LeadV2View)
  @ApiErrors(400, 404)
  @ApiIdParam('leadId')
  async detail(@Param('leadId', IdPipe) leadId: number, @Access() access: ClientAccess) {
    return presentLeadV2(await this.reads.getLead(leadId, access));
  }

  @Get()
  @ApiOperation({
    summary: 'Leads ordered by id, with previousLeadId/nextLeadId; total is exact',
    description:
      'Filters: orderIds, statusIds, createdAt[0]/createdAt[1], and the lookup keys phone (normalised as on create), externalIdCrmA..D (exact). ' +
      'Refuses with 400 an offset below 0, a limit outside 1..100, non-integer ids, an unparsable date or a phone that is not one. ' +
      "A client key sees only its client's orders: other orderIds add nothing, and total counts only what it sees.",
  })
  @ApiCreatedAtQuery({ from: '2026-11-01T00:00:00+03:00', to: '2026-11-30' })
  @ApiQuery({
    name: 'orderIds',
    required: false,
    type: 'integer',
    isArray: true,
    description: 'orderIds[]=1&orderIds[]=2, orderIds=1&orderIds=2 or orderIds=1,2',
  })
  @ApiQuery({ name: 'statusIds', required: false, type: 'integer', isArray: true, description: 'Same forms as orderIds' })
  @ApiEnvelopeList(LeadV2ListItemView)
  @ApiErrors(400)
  async list(@Query() query: LeadLookupQueryDto, @Access() access: ClientAccess) {
    const filter = { orderIds: query.orderIds, statusIds: query.statusIds, createdFrom: query.createdAt?.from, createdTo: query.createdAt?.to };
    const keys = Object.fromEntries(LOOKUP_KEYS.filter((k) => query[k] !== undefined).map((k) => [k, query[k]]));
    const page = Object.keys(keys).length
      ? await this.reads.lookupLeads({ ...filter, keys }, query.offset, query.limit, access)
      : await this.reads.listLeads(filter, query.offset, query.limit, access);
    return { ...page, list: page.list.map(presentLeadV2ListItem) };
  }
}
