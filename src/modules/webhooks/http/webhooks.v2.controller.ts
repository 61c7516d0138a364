import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ClientAccess } from '../../../common/auth-context';
import { IdPipe } from '../../../common/id.pipe';
import { Access, Isolation } from '../../../common/isolation';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';
import { PageQuery } from '../../../common/query';
import { WebhooksService } from '../webhooks.service';
import { CreateWebhookDto, DeliveryListQuery, UpdateWebhookDto } from './dto/webhook.dto';
import { presentDelivery, presentWebhook, WebhookCreatedView, WebhookDeliveryView, WebhookSecretView, WebhookView } from './webhook.presenter';

/**
 * Every route is scoped: a webhook created with a client key is its client's, reached only with
 * that client's keys (another's answers 404 like an unknown id); unrestricted keys reach them all.
 */
@ApiTags('webhooks')
@ApiKeyErrors()
@Isolation('scoped')
@Controller('v2/webhook')
export class WebhooksV2Controller {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('create')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Subscribe a URL to events; data is {id, secret} (the secret is shown here and by rotate-secret only)',
    description:
      'Deliveries are POSTs signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature). ' +
      'Refuses with 400 naming the field: a URL that is not https (unless WEBHOOK_ALLOW_HTTP), carries credentials, or resolves to a ' +
      'loopback, private, link-local or other non-public address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS); an empty or unknown event type; orders that do not exist ' +
      "(for a client key: that are not its client's). A webhook created with a client key belongs to its client and receives only its client's orders' events.",
  })
  @ApiEnvelope(WebhookCreatedView, { description: 'Created: data.id and data.secret' })
  @ApiErrors(400, 409, 413)
  create(@Body() dto: CreateWebhookDto, @Access() access: ClientAccess) {
    return this.webhooks.create(access, dto);
  }

  @Post('update/:webhookId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Update a webhook: only the fields sent change; isActive: true turns a disabled webhook on again',
    description: "The field rules of create (400 naming each refused field); 404 when the webhook does not exist (for a client key: is not its client's).",
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 413)
  @ApiIdParam('webhookId')
  async update(@Param('webhookId', IdPipe) id: number, @Body() dto: UpdateWebhookDto, @Access() access: ClientAccess) {
    await this.webhooks.update(access, id, dto);
  }

  @Get('delivery')
  @ApiOperation({
    summary: 'Deliveries by id ascending: {list, next, total}',
    description:
      "Filters: webhookId, status (pending, delivered, failed); a client key sees only its client's webhooks' deliveries. " +
      'Refuses with 400 a bad filter, an offset below 0 or a limit outside 1..100.',
  })
  @ApiEnvelopeList(WebhookDeliveryView)
  @ApiErrors(400)
  async deliveries(@Query() query: DeliveryListQuery, @Access() access: ClientAccess) {
    const page = await this.webhooks.deliveries(access, { webhookId: query.webhookId, status: query.status }, query.offset, query.limit);
    return { ...page, list: page.list.map(presentDelivery) };
  }

  @Post('redeliver/:deliveryId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a delivery again, as soon as a worker is free (its attempts keep counting)',
    description:
      "Refuses an id that is not a positive integer (400); 404 when no delivery has it (for a client key: no delivery of its client's webhooks). " +
      "A disabled webhook's delivery waits until the webhook is on again.",
  })
  @ApiUpdated('Queued; data is []')
  @ApiErrors(400, 404)
  @ApiIdParam('deliveryId')
  async redeliver(@Param('deliveryId', IdPipe) id: number, @Access() access: ClientAccess) {
    await this.webhooks.redeliver(access, id);
  }

  @Get('detail/:webhookId')
  @ApiOperation({
    summary: 'One webhook (never its secret)',
    description: "Refuses an id that is not a positive integer (400); 404 when no webhook has it (for a client key: none of its client's has it).",
  })
  @ApiEnvelope(WebhookView)
  @ApiErrors(400, 404)
  @ApiIdParam('webhookId')
  async detail(@Param('webhookId', IdPipe) id: number, @Access() access: ClientAccess) {
    return presentWebhook(await this.webhooks.detail(access, id));
  }

  @Get()
  @ApiOperation({
    summary: 'Webhooks by id ascending: {list, next, total} (never their secrets)',
    description: "A client key lists only its client's webhooks. Refuses with 400 an offset below 0 or a limit outside 1..100.",
  })
  @ApiEnvelopeList(WebhookView)
  @ApiErrors(400)
  async list(@Query() query: PageQuery, @Access() access: ClientAccess) {
    const page = await this.webhooks.list(access, query.offset, query.limit);
    return { ...page, list: page.list.map(presentWebhook) };
  }

  @Post('rotate-secret/:webhookId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new signing secret; data is {secret}. The previous secret also signs for 24 h (two v1 signatures per delivery)',
    description: "Refuses an id that is not a positive integer (400); 404 when no webhook has it (for a client key: none of its client's has it).",
  })
  @ApiEnvelope(WebhookSecretView)
  @ApiErrors(400, 404)
  @ApiIdParam('webhookId')
  rotateSecret(@Param('webhookId', IdPipe) id: number, @Access() access: ClientAccess) {
    return this.webhooks.rotateSecret(access, id);
  }

  @Post('test/:webhookId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Queue a webhook.test event (data {webhookId}) for this webhook only',
    description:
      "Refuses an id that is not a positive integer (400); 404 when no webhook has it (for a client key: none of its client's has it); 409 when the webhook is not active.",
  })
  @ApiUpdated('Queued; data is []')
  @ApiErrors(400, 404, 409)
  @ApiIdParam('webhookId')
  async test(@Param('webhookId', IdPipe) id: number, @Access() access: ClientAccess) {
    await this.webhooks.sendTest(access, id);
  }

  @Post('delete/:webhookId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete a webhook and its deliveries',
    description: "Refuses an id that is not a positive integer (400); 404 when no webhook has it (for a client key: none of its client's has it).",
  })
  @ApiUpdated('Deleted; data is []')
  @ApiErrors(400, 404)
  @ApiIdParam('webhookId')
  async delete(@Param('webhookId', IdPipe) id: number, @Access() access: ClientAccess) {
    await this.webhooks.delete(access, id);
  }
}
