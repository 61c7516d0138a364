import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ClientAccess } from '../../../common/auth-context';
import { IdPipe } from '../../../common/id.pipe';
import { Access, Isolation } from '../../../common/isolation';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { PageQuery } from '../../../common/query';
import { OrdersService } from '../orders.service';
import { CreateOrderDto, UpdateOrderDto } from './dto/order.dto';
import { OrderListItemView, OrderView, presentOrder } from './order.presenter';
import { orderRedialRulesOf } from '../../dialing/http/redial-rule.dto';
import { ApiCreated, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/** Orders; a client key reaches only its client's (the service applies the request's access). */
@ApiTags('orders')
@ApiKeyErrors()
@Isolation('scoped')
@Controller('v2/order')
export class OrdersV2Controller {
  constructor(private readonly orders: OrdersService) {}

  @Post('create')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create an order (synchronous); data is {id}. 409 when the code is taken by another order of the same client.',
    description:
      'Refuses with 400 naming each field: ids (agents, agent groups, virtual numbers, call attempt group, call scenario, client) that do not exist, ' +
      'an invalid schedule or holiday, custom values that do not fit their field; 409 when another order of the same client (or, for an order ' +
      "of no client, another order of no client) has the code: codes are unique within a client, not across clients. With a client key the order is the key's " +
      "client's: a clientId other than the key's own (null included) is a 400, and agents or agent groups the key does not reach (those of its " +
      "client's orders) are unknown ids, in the same message as ids that do not exist.",
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  create(@Body() dto: CreateOrderDto, @Access() access: ClientAccess) {
    return this.orders.create({ ...dto, redialRules: orderRedialRulesOf(dto.redialRules) }, access);
  }

  @Post('update/:orderId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Update an order: only the fields sent change; arrays sent replace the stored ones',
    description:
      'The field rules of create (400 naming each refused field); a new clientId moves the order with its leads and calls (a client key ' +
      "cannot: 400); 404 when the order does not exist, or is another client's and the key a client key; 409 when another order of the order's " +
      '(new) client has the code.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('orderId')
  async update(@Param('orderId', IdPipe) orderId: number, @Body() dto: UpdateOrderDto, @Access() access: ClientAccess) {
    await this.orders.update(orderId, { ...dto, redialRules: orderRedialRulesOf(dto.redialRules) }, access);
  }

  @Get('detail/:orderId')
  @ApiOperation({
    summary: 'One order',
    description: "Refuses an id that is not a positive integer (400); 404 when no order has it, or it is another client's and the key a client key.",
  })
  @ApiEnvelope(OrderView)
  @ApiErrors(400, 404)
  @ApiIdParam('orderId')
  async detail(@Param('orderId', IdPipe) orderId: number, @Access() access: ClientAccess) {
    return presentOrder(await this.orders.detail(orderId, access), 'detail');
  }

  @Get()
  @ApiOperation({
    summary: 'Orders by id ascending: {list, next, total}',
    description: "Refuses with 400 an offset below 0 or a limit outside 1..100. A client key lists only its client's orders (total included).",
  })
  @ApiEnvelopeList(OrderListItemView)
  @ApiErrors(400)
  async list(@Query() query: PageQuery, @Access() access: ClientAccess) {
    const page = await this.orders.list(access, query.offset, query.limit);
    return { ...page, list: page.list.map((o) => presentOrder(o, 'list')) };
  }
}
