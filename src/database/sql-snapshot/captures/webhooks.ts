import { WebhooksRepository } from '../../../modules/webhooks/persistence/webhooks.repository';
import { RecordingDatabase, sent, SqlSnapshot } from '../sql-capture';
import { describeInputs, LIMIT } from './inputs';

const repo = (db: RecordingDatabase) => new WebhooksRepository(db.asDataSource());

export const WEBHOOK_SNAPSHOTS: SqlSnapshot[] = [
  {
    file: 'src/modules/webhooks/persistence/webhooks.repository.sql',
    captures: [
      sent(
        {
          fn: 'WebhooksRepository.update',
          note: 'the fields given',
          inputs: describeInputs({ id: 5, patch: { url: 'https://example.test/hook', events: ['lead.created'] } }),
        },
        (db) => repo(db).update(5, { url: 'https://example.test/hook', events: ['lead.created'] }),
      ),
      sent(
        { fn: 'WebhooksRepository.update', note: 'turned on: why it was turned off is cleared', inputs: describeInputs({ id: 5, patch: { isActive: true } }) },
        (db) => repo(db).update(5, { isActive: true }),
      ),
      sent({ fn: 'WebhooksRepository.listPage', note: 'count, then the page', inputs: describeInputs({ offset: 0, limit: LIMIT }) }, (db) =>
        repo(db).listPage(0, LIMIT),
      ),
      sent({ fn: 'WebhooksRepository.listDeliveries', note: 'no filter', inputs: describeInputs({ filter: {}, offset: 0, limit: LIMIT }) }, (db) =>
        repo(db).listDeliveries({}, 0, LIMIT),
      ),
      sent(
        {
          fn: 'WebhooksRepository.listDeliveries',
          note: "one webhook's failed deliveries",
          inputs: describeInputs({ filter: { webhookId: 5, status: 'failed' }, offset: 0, limit: LIMIT }),
        },
        (db) => repo(db).listDeliveries({ webhookId: 5, status: 'failed' }, 0, LIMIT),
      ),
    ],
  },
];
