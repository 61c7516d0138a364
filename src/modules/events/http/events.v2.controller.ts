import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ClientAccess } from '../../../common/auth-context';
import { Access, Isolation } from '../../../common/isolation';
import { ApiEnvelope, ApiErrors, ApiKeyErrors } from '../../../common/openapi/envelope.decorators';
import { EventFeed } from '../event-feed.service';
import { EventFeedQuery } from './dto/event-feed.query';
import { EventFeedView, presentFeedItem } from './event.presenter';

@ApiTags('events')
@ApiKeyErrors()
@Controller('v2/event')
export class EventsV2Controller {
  constructor(private readonly feed: EventFeed) {}

  @Get()
  @Isolation('scoped')
  @ApiOperation({
    summary: 'The event feed: events after a position, in commit order; data is {list, next}',
    description:
      "Follow it by passing each page's `next` as `after` (an empty list returns the same `after`). It never skips: an event appears only once " +
      'nothing before it can still commit, so every committed change is seen exactly once, in commit order. ' +
      "With a client key: only events of its client's orders (an orderIds filter naming other orders adds nothing) and the webhook.test " +
      "events of its client's webhooks; positions and `next` work the same. " +
      'Refuses with 400 an `after` below 0, a limit outside 1..1000, an unknown type or a bad order id; 410 when `after` is older than the ' +
      'retained events (EVENT_RETENTION_DAYS).',
  })
  @ApiEnvelope(EventFeedView)
  @ApiErrors(400, 410)
  async list(@Query() q: EventFeedQuery, @Access() access: ClientAccess) {
    const page = await this.feed.read(q.after, q.limit, { types: q.types, orderIds: q.orderIds }, access);
    return { list: page.list.map(presentFeedItem), next: page.next };
  }
}
