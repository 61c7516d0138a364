import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { PageQuery } from '../../../common/query';
import { OrdersService } from '../orders.service';
import { CreateOrderDto, UpdateOrderDto } from './dto/order.dto';
import { OrderView, presentOrder } from './order.presenter';
import { ApiCreated, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

@ApiTags('orders')
@ApiKeyErrors()
@Controller('v2/order')
export class OrdersV2Controller {
  constructor(private readonly orders: OrdersService) {}

  @Post('create')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create an order (synchronous); data is {id}. 409 when the code is taken.',
    description:
      'Refuses with 400 naming each field: ids (agents, agent groups, virtual numbers, call attempt group, call scenario) that do not exist, ' +
      'an invalid schedule or holiday, custom values that do not fit their field; 409 when the code is taken.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  create(@Body() dto: CreateOrderDto) {
    return this.orders.create(dto);
  }

  @Post('update/:orderId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Update an order: only the fields sent change; arrays sent replace the stored ones',
    description: 'The field rules of create (400 naming each refused field); 404 when the order does not exist; 409 when another order has the code.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('orderId')
  async update(@Param('orderId', IdPipe) orderId: number, @Body() dto: UpdateOrderDto) {
    await this.orders.update(orderId, dto);
  }

  @Get('detail/:orderId')
  @ApiOperation({ summary: 'One order', description: 'Refuses an id that is not a positive integer (400); 404 when no order has it.' })
  @ApiEnvelope(OrderView)
  @ApiErrors(400, 404)
  @ApiIdParam('orderId')
  async detail(@Param('orderId', IdPipe) orderId: number) {
    return presentOrder(await this.orders.detail(orderId), 'detail');
  }

  @Get()
  @ApiOperation({ summary: 'Orders by id ascending: {list, next, total}', description: 'Refuses with 400 an offset below 0 or a limit outside 1..100.' })
  @ApiEnvelopeList(OrderView)
  @ApiErrors(400)
  async list(@Query() query: PageQuery) {
    const page = await this.orders.list(query.offset, query.limit);
    return { ...page, list: page.list.map((o) => presentOrder(o, 'list')) };
  }
}
