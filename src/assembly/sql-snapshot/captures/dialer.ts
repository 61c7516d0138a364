import { DialerClaimsRepository } from '../../../modules/dialer/persistence/dialer-claims.repository';
import { RecordingDatabase, sent, SqlSnapshot } from '../../../database/sql-snapshot/sql-capture';
import { describeInputs, LIMIT, NOW } from './inputs';

const repo = (db: RecordingDatabase) => new DialerClaimsRepository(db.asDataSource());
const LEASE = new Date(NOW.getTime() + 120_000);

export const DIALER_SNAPSHOTS: SqlSnapshot[] = [
  {
    file: 'src/modules/dialer/persistence/dialer-claims.repository.sql',
    captures: [
      sent({ fn: 'DialerClaimsRepository.claimOrders', note: 'no orders named: every order that dials', inputs: 'ids: none' }, (db) =>
        repo(db).claimOrders(db.asManager(), undefined),
      ),
      sent({ fn: 'DialerClaimsRepository.lockDueLeads', inputs: describeInputs({ perOrder: { 1: LIMIT, 2: 3 }, now: NOW }) }, (db) =>
        repo(db).lockDueLeads(
          db.asManager(),
          new Map([
            [1, LIMIT],
            [2, 3],
          ]),
          NOW,
        ),
      ),
      sent(
        {
          fn: 'DialerClaimsRepository.insertClaims',
          inputs: describeInputs({ leads: '(1, 10), (2, 20)', dialerId: 'dialer-a', now: NOW, leaseExpiresAt: LEASE }),
        },
        (db) =>
          repo(db).insertClaims(
            db.asManager(),
            [
              { orderId: 1, leadId: 10 },
              { orderId: 2, leadId: 20 },
            ],
            'dialer-a',
            NOW,
            LEASE,
          ),
        () => [],
      ),
      sent(
        {
          fn: 'DialerClaimsRepository.listLive',
          note: 'count, then the page',
          inputs: describeInputs({ orderId: 1, dialerId: 'dialer-a', offset: 0, limit: LIMIT }),
        },
        (db) => repo(db).listLive({ orderId: 1, dialerId: 'dialer-a' }, NOW, 0, LIMIT),
      ),
    ],
  },
];
