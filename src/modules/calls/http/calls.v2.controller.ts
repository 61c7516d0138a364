import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import type { ClientAccess } from '../../../common/auth-context';
import { Access, Isolation } from '../../../common/isolation';
import { RequireScope } from '../../auth/http/auth.decorators';
import { CallsService } from '../calls.service';
import { CallBatchService, MAX_BATCH_CALLS } from '../call-batch.service';
import { CallBatchResultView, checkCallBatchItem, RecordCallBatchDto } from './dto/call-batch.dto';
import { CallView, presentCall } from './call.presenter';
import { ListCallsQuery, RecordCallDto } from './dto/call.dto';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { ApiCreated, ApiCreatedAtQuery, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors } from '../../../common/openapi/envelope.decorators';

@ApiTags('calls')
@ApiKeyErrors()
@Controller('v2/call')
export class CallsV2Controller {
  constructor(
    private readonly calls: CallsService,
    private readonly batch: CallBatchService,
  ) {}

  @Get()
  @Isolation('scoped')
  @ApiOperation({
    summary: 'List calls of leads or orders (leadIds or orderIds required)',
    description:
      "With a client key: only calls of its client's orders (leadIds or orderIds of other orders add nothing; total counts only those). " +
      'Refuses with 400 a request without leadIds and orderIds, non-integer ids, an unparsable createdAt, an offset below 0 or a limit outside 1..100.',
  })
  @ApiCreatedAtQuery()
  @ApiEnvelopeList(CallView)
  @ApiErrors(400)
  async list(@Query() q: ListCallsQuery, @Access() access: ClientAccess) {
    const page = await this.calls.listCalls(access, { ...q, ...q.createdAt });
    return { ...page, list: page.list.map(presentCall) };
  }

  @Get('detail/:callId')
  @Isolation('scoped')
  @ApiOperation({
    summary: 'One call',
    description: "Refuses an id that is not a positive integer (400); 404 when no call has it, or (client key) when it is not of its client's orders.",
  })
  @ApiEnvelope(CallView)
  @ApiErrors(400, 404)
  @ApiIdParam('callId')
  async detail(@Param('callId', IdPipe) callId: number, @Access() access: ClientAccess) {
    return presentCall(await this.calls.getCall(access, callId));
  }

  @Post('create')
  @Idempotent()
  @HttpCode(200)
  @RequireScope('telephony')
  @ApiOperation({
    summary: 'Record a finished call (telephony scope); idempotent on platformCallId; updates the lead redial plan',
    description:
      "Refuses with 400 naming the field: a lead, virtual number, status or user that does not exist, an orderId other than the lead's, a total shorter than wait + talk, a call that would end in the future or start before 2000; 403 without the telephony scope. " +
      "The call ends the dialer's claim of the lead: claimToken must name the lead's live claim (else 409: expired, ended or another lead's); without one, any claim of the lead ends.",
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  record(@Body() dto: RecordCallDto) {
    return this.calls.recordCall(dto);
  }

  @Post('create-batch')
  @Idempotent()
  @HttpCode(200)
  @RequireScope('telephony')
  @ApiOperation({
    summary: `Record up to ${MAX_BATCH_CALLS} finished calls (telephony scope); data.results has one result per item, in order`,
    description:
      'Each item is a body of POST /v2/call/create/ under every rule of that route; a bad item fails alone ({index, success: false, errors}: ' +
      'the field errors of the single route, a claimToken that is not the live claim of its lead as an error on claimToken), the others are ' +
      'recorded ({index, success: true, id}; a platformCallId delivered before answers with its call, as the single route does). The common ' +
      'calls of a batch are written in one transaction with set-based statements: a dialer reporting its finished calls in batches costs ' +
      'the service a fraction of a request per call. 400 for the whole request (nothing stored) when the body is not an object, has no ' +
      `calls array, or calls is empty or longer than ${MAX_BATCH_CALLS}; 403 without the telephony scope.`,
  })
  @ApiEnvelope(CallBatchResultView)
  @ApiErrors(400, 409, 413)
  recordBatch(@Body() dto: RecordCallBatchDto) {
    return this.batch.recordBatch(dto.calls.map(checkCallBatchItem));
  }
}
