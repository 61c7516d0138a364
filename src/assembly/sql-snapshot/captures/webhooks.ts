import { WebhooksRepository } from '../../../modules/webhooks/persistence/webhooks.repository';
import { RecordingDatabase, sent, SqlCapture, SqlSnapshot } from '../../../database/sql-snapshot/sql-capture';
import { describeInputs, LIMIT } from './inputs';

const repo = (db: RecordingDatabase) => new WebhooksRepository(db.asDataSource());

/** A client key's statement: the webhook's owner in the same statement. */
function ofClient(fn: string, inputs: Record<string, unknown>, send: (r: WebhooksRepository) => Promise<unknown>): SqlCapture {
  return sent({ fn: `WebhooksRepository.${fn}`, note: "a client key: only its client's webhooks", inputs: describeInputs(inputs) }, (db) => send(repo(db)));
}

export const WEBHOOK_SNAPSHOTS: SqlSnapshot[] = [
  {
    file: 'src/modules/webhooks/persistence/webhooks.repository.sql',
    captures: [
      sent(
        {
          fn: 'WebhooksRepository.update',
          note: 'the fields given',
          inputs: describeInputs({ id: 5, clientId: null, patch: { url: 'https://example.test/hook', events: ['lead.created'] } }),
        },
        (db) => repo(db).update(5, null, { url: 'https://example.test/hook', events: ['lead.created'] }),
      ),
      sent(
        {
          fn: 'WebhooksRepository.update',
          note: 'turned on: why it was turned off is cleared',
          inputs: describeInputs({ id: 5, clientId: null, patch: { isActive: true } }),
        },
        (db) => repo(db).update(5, null, { isActive: true }),
      ),
      ofClient('update', { id: 5, clientId: 2, patch: { isActive: false } }, (r) => r.update(5, 2, { isActive: false })),
      sent({ fn: 'WebhooksRepository.listPage', note: 'count, then the page', inputs: describeInputs({ clientId: null, offset: 0, limit: LIMIT }) }, (db) =>
        repo(db).listPage(null, 0, LIMIT),
      ),
      ofClient('listPage', { clientId: 2, offset: 0, limit: LIMIT }, (r) => r.listPage(2, 0, LIMIT)),
      ofClient('findById', { id: 5, clientId: 2 }, (r) => r.findById(5, 2)),
      ofClient('delete', { id: 5, clientId: 2 }, (r) => r.delete(5, 2)),
      ofClient('rotateSecret', { id: 5, clientId: 2, secret: 'whsec_new', graceHours: 24 }, (r) => r.rotateSecret(5, 2, 'whsec_new', 24)),
      sent(
        { fn: 'WebhooksRepository.listDeliveries', note: 'no filter', inputs: describeInputs({ filter: {}, clientId: null, offset: 0, limit: LIMIT }) },
        (db) => repo(db).listDeliveries({}, null, 0, LIMIT),
      ),
      sent(
        {
          fn: 'WebhooksRepository.listDeliveries',
          note: "one webhook's failed deliveries",
          inputs: describeInputs({ filter: { webhookId: 5, status: 'failed' }, clientId: null, offset: 0, limit: LIMIT }),
        },
        (db) => repo(db).listDeliveries({ webhookId: 5, status: 'failed' }, null, 0, LIMIT),
      ),
      ofClient('listDeliveries', { filter: { status: 'failed' }, clientId: 2, offset: 0, limit: LIMIT }, (r) =>
        r.listDeliveries({ status: 'failed' }, 2, 0, LIMIT),
      ),
      ofClient('redeliver', { id: 9, clientId: 2 }, (r) => r.redeliver(9, 2)),
    ],
  },
];
