import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ClientAccess } from '../../../common/auth-context';
import { DomainError } from '../../../common/domain-error';
import { Access, Isolation } from '../../../common/isolation';
import { IdPipe } from '../../../common/id.pipe';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { fromV1Create, fromV1Update, toV1Detail, toV1FieldErrors } from './lead-v1.presenter';
import { LeadsService } from '../leads.service';
import { LeadReadsService } from '../lead-reads.service';
import { CreateLeadV1Dto, UpdateLeadV1Dto } from './dto/lead-v1.dto';
import { IdempotencyToken } from '../../../common/idempotency/idempotency-token';
import { LeadV1View } from './lead.presenter';
import { ApiCreated, ApiEnvelope, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/** Validation errors of the shared service name v2 fields; v1 callers get their own field names. */
async function inV1Terms<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'validation') throw DomainError.validation(toV1FieldErrors(err.fieldErrors), err.code);
    throw err;
  }
}

/** The older lead interface: the same service and rules as v2 (client keys included), snake_case in and UF_ fields out. */
@ApiTags('leads (v1)')
@ApiKeyErrors()
@Isolation('scoped')
@Controller('v1/lead')
export class LeadsV1Controller {
  constructor(
    private readonly leads: LeadsService,
    private readonly reads: LeadReadsService,
  ) {}

  @Post('create')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a lead (v1 fields); data.id is the new lead',
    description: 'The same rules as POST /v2/lead/create; a refused field is named in its v1 spelling (400).',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  create(@Body() dto: CreateLeadV1Dto, @Access() access: ClientAccess, @IdempotencyToken() token?: string) {
    return inV1Terms(this.leads.createLead(fromV1Create(dto), access, token));
  }

  @Post('update/:lead_id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change the fields sent (v1 names); call_timestamp sets the next call time; data is []',
    description:
      'The same rules as POST /v2/lead/update/{leadId}: 400 names the refused field in its v1 spelling, 404 when the lead does not exist ' +
      "(or, for a client key, is not in its client's orders), 409 as for v2.",
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('lead_id')
  async update(@Param('lead_id', IdPipe) leadId: number, @Body() dto: UpdateLeadV1Dto, @Access() access: ClientAccess) {
    await inV1Terms(this.leads.updateLead(leadId, fromV1Update(dto), access));
  }

  @Get('detail/:lead_id')
  @ApiOperation({
    summary: 'One lead in the v1 UF_ shape (UF_CALL_DATE_TIME in Unix seconds)',
    description: "Refuses an id that is not a positive integer (400); 404 when no lead has it, or (client key) it is not in its client's orders.",
  })
  @ApiEnvelope(LeadV1View)
  @ApiErrors(400, 404)
  @ApiIdParam('lead_id')
  async detail(@Param('lead_id', IdPipe) leadId: number, @Access() access: ClientAccess) {
    return toV1Detail(await this.reads.getLead(leadId, access));
  }
}
