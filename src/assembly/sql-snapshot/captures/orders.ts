import type { OrderChanges } from '../../../modules/orders/domain/order';
import { OrdersRepository } from '../../../modules/orders/persistence/orders.repository';
import { RecordingDatabase, sent, SqlSnapshot } from '../../../database/sql-snapshot/sql-capture';
import { describeInputs, LIMIT } from './inputs';

const repo = (db: RecordingDatabase) => new OrdersRepository(db.asDataSource());

/** Scalar fields of each cast the insert and update spell out (varchar, boolean, int, jsonb, date[]). */
const CHANGES: OrderChanges = {
  title: 'Winter campaign',
  autoDialingEnabled: true,
  qualifiedLeadsPerDayLimit: 40,
  customValues: { region: 'north' },
  callHolidayOverrides: ['2026-12-25'],
};

export const ORDER_SNAPSHOTS: SqlSnapshot[] = [
  {
    file: 'src/modules/orders/persistence/orders.repository.sql',
    captures: [
      sent(
        {
          fn: 'OrdersRepository.insertOrder',
          note: 'the fields given, each with its cast',
          inputs: describeInputs({ changes: { code: 'winter', ...CHANGES } }),
        },
        (db) => repo(db).insertOrder(db.asManager(), { code: 'winter', ...CHANGES }),
      ),
      sent(
        {
          fn: 'OrdersRepository.insertOrder',
          note: "a client's order: its code is unique among that client's orders",
          inputs: describeInputs({ changes: { code: 'winter', clientId: 2, title: CHANGES.title } }),
        },
        (db) => repo(db).insertOrder(db.asManager(), { code: 'winter', clientId: 2, title: CHANGES.title }),
      ),
      sent({ fn: 'OrdersRepository.updateOrder', note: 'the fields given, each with its cast', inputs: describeInputs({ id: 3, changes: CHANGES }) }, (db) =>
        repo(db).updateOrder(db.asManager(), 3, CHANGES),
      ),
      sent({ fn: 'OrdersRepository.listPage', note: 'count, then the page', inputs: describeInputs({ offset: 0, limit: LIMIT }) }, (db) =>
        repo(db).listPage(0, LIMIT),
      ),
      sent(
        {
          fn: 'OrdersRepository.listPage',
          note: "a client key's list: count, then the page, of its client's orders",
          inputs: describeInputs({ offset: 0, limit: LIMIT, clientId: 2 }),
        },
        (db) => repo(db).listPage(0, LIMIT, 2),
      ),
    ],
  },
];
