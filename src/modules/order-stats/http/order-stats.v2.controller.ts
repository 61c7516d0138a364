import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ClientAccess } from '../../../common/auth-context';
import { IdPipe } from '../../../common/id.pipe';
import { Access, Isolation } from '../../../common/isolation';
import { ApiEnvelope, ApiErrors, ApiIdParam, ApiKeyErrors } from '../../../common/openapi/envelope.decorators';
import { OrderStatsService } from '../order-stats.service';
import { OrderStatsView, presentOrderStats } from './order-stats.presenter';

@ApiTags('orders')
@ApiKeyErrors()
@Isolation('scoped')
@Controller('v2/order')
export class OrderStatsV2Controller {
  constructor(private readonly orderStats: OrderStatsService) {}

  @Get('stats/:orderId')
  @ApiOperation({
    summary: 'Live figures of an order (extension): leads per category, due calls, attempts and qualified leads today',
    description:
      "Read from counters and indexed ranges, so it costs the same for 10 or a million leads. Today is the order's day in its " +
      'defaultTimeZone (else defaultUtcOffset). Refuses an id that is not a positive integer (400); 404 when no order has it, ' +
      "or it is another client's and the key a client key.",
  })
  @ApiEnvelope(OrderStatsView)
  @ApiErrors(400, 404)
  @ApiIdParam('orderId')
  async stats(@Param('orderId', IdPipe) orderId: number, @Access() access: ClientAccess) {
    return presentOrderStats(await this.orderStats.stats(orderId, access));
  }
}
