import { ApiHideProperty } from '@nestjs/swagger';
import { DateRange, DateRangeQuery } from '../../../../common/date-range';
import { PageQuery, PositiveIds } from '../../../../common/query';

/** GET /v2/lead/ query. The array and range parameters are documented on the controller. */
export class LeadListQueryDto extends PageQuery {
  @ApiHideProperty()
  @PositiveIds()
  orderIds?: number[];

  @ApiHideProperty()
  @PositiveIds()
  statusIds?: number[];

  @DateRangeQuery()
  createdAt?: DateRange;
}
