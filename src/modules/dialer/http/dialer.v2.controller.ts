import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiKeyErrors } from '../../../common/openapi/envelope.decorators';
import { RequireScope } from '../../auth/http/auth.decorators';
import { CLAIM_LIMITS } from '../domain/claim';
import { DialerService } from '../dialer.service';
import {
  ClaimedLeadsView,
  ConfirmationsView,
  DialerClaimView,
  presentClaimedLead,
  presentConfirmation,
  presentDialerClaim,
  ReleasedView,
} from './dialer.presenter';
import { ClaimDto, ClaimListQuery, ClaimTokensDto, ReleaseDto } from './dto/dialer.dto';

const SCOPE = '403 without the telephony scope (client keys never have it).';

/** The dialer's side (scope telephony): claim due leads with a lease, give them back, look once more before dialling. */
@ApiTags('dialer')
@ApiKeyErrors()
@RequireScope('telephony')
@Controller('v2/dialer')
export class DialerV2Controller {
  constructor(private readonly dialer: DialerService) {}

  @Post('claim')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Claim leads to call now, each held by this claim until its lease expires (data: {list})',
    description:
      'Hands out only leads the stored dialing decision has due and unheld, that GET /v2/lead/callable calls callable now (inside their window, ' +
      'the order dialling and under its qualified limit), and that no live claim holds: never one lead to two live claims. ' +
      "In queue order (priority higher first, planned time, id); across orders each gets a share proportional to its dialWeight, and an order's own leads keep their order. " +
      'A claim ends when its lease expires, it is released, a confirmation refuses it, or a call is recorded for its lead. ' +
      `Refuses with 400: dialerId outside 1..${CLAIM_LIMITS.dialerIdLength} characters, limit outside 1..${CLAIM_LIMITS.maxLimit}, ` +
      `leaseSeconds outside ${CLAIM_LIMITS.minLeaseSeconds}..${CLAIM_LIMITS.maxLeaseSeconds}, an orderIds entry that is no order. ${SCOPE}`,
  })
  @ApiEnvelope(ClaimedLeadsView)
  @ApiErrors(400, 413)
  async claim(@Body() dto: ClaimDto): Promise<ClaimedLeadsView> {
    const leads = await this.dialer.claim({ ...dto, leaseSeconds: dto.leaseSeconds ?? CLAIM_LIMITS.defaultLeaseSeconds });
    return { list: leads.map(presentClaimedLead) };
  }

  @Post('release')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give claimed leads back unused (data: {count})',
    description:
      'Ends the live claims of the tokens: their leads are due again at once, or with retryAfterSeconds wanted not before then ' +
      '(the dialing decision places the call in the lead’s window). Tokens that are no live claim are skipped. ' +
      `Refuses with 400: no token, more than ${CLAIM_LIMITS.maxTokens}, a token that is not a UUID, retryAfterSeconds outside 1..${CLAIM_LIMITS.maxRetryAfterSeconds}. ${SCOPE}`,
  })
  @ApiEnvelope(ReleasedView)
  @ApiErrors(400, 413)
  async release(@Body() dto: ReleaseDto): Promise<ReleasedView> {
    return { count: await this.dialer.release(dto.claimTokens, dto.retryAfterSeconds) };
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({
    summary: 'The last look before dialling: may each claimed lead still be called? (data: {list})',
    description:
      'Per token: dialable true while the claim is live and GET /v2/lead/callable calls the lead callable now; else dialable false with the reasons ' +
      '(a do-not-call add: dnc, consent withdrawn: no_consent, the order paused: order_autodialing_disabled, the window closed: outside_hours, ...) ' +
      'and the claim ends; a token that is no live claim: claim_ended. ' +
      `Refuses with 400: no token, more than ${CLAIM_LIMITS.maxTokens}, a token that is not a UUID. ${SCOPE}`,
  })
  @ApiEnvelope(ConfirmationsView)
  @ApiErrors(400, 413)
  async confirm(@Body() dto: ClaimTokensDto): Promise<ConfirmationsView> {
    return { list: (await this.dialer.confirm(dto.claimTokens)).map(presentConfirmation) };
  }

  @Get('claims')
  @ApiOperation({
    summary: 'Live claims, by lease expiry (data: {list, next, total})',
    description: `For operators. Filters: orderId, dialerId. Refuses with 400 a bad filter, an offset below 0 or a limit outside 1..100. ${SCOPE}`,
  })
  @ApiEnvelopeList(DialerClaimView)
  @ApiErrors(400)
  async list(@Query() q: ClaimListQuery) {
    const { offset, limit, ...filter } = q;
    const page = await this.dialer.listClaims(filter, offset, limit);
    return { ...page, list: page.list.map(presentDialerClaim) };
  }
}
