import type { FeedFilter } from '../../../modules/events/domain/event';
import { EventsRepository } from '../../../modules/events/persistence/events.repository';
import { sent, SqlCapture, SqlSnapshot } from '../../../database/sql-snapshot/sql-capture';
import { describeInputs } from './inputs';

function page(note: string, filter: FeedFilter): SqlCapture {
  return sent({ fn: 'EventsRepository.page', note, inputs: describeInputs({ after: 1200, limit: 100, filter }) }, (db) =>
    new EventsRepository(db.asDataSource()).page(1200, 100, filter),
  );
}

export const EVENT_SNAPSHOTS: SqlSnapshot[] = [
  {
    file: 'src/modules/events/persistence/events.repository.sql',
    captures: [
      page('no filter: the position index', {}),
      page('orders (and types): a range of (order_id, position) per order', { orderIds: [3, 4], types: ['lead.created'] }),
      page('types: one branch per type', { types: ['lead.created', 'lead.updated', 'call.created'] }),
      page("a client key: a range of (order_id, position) per order of the client, and its webhooks' test events", { clientId: 2 }),
      page("a client key with orders and types: the client's orders among them, no test events", {
        clientId: 2,
        orderIds: [3, 4],
        types: ['lead.created', 'webhook.test'],
      }),
      page('a client key asking for test events only: no order branch', { clientId: 2, types: ['webhook.test'] }),
      page('a client key asking for test events of orders: none can match', { clientId: 2, types: ['webhook.test'], orderIds: [3] }),
    ],
  },
];
