import type { IdBounds } from '../../../database/counters/counted-page';
import { CallStatsService } from '../../../modules/calls/call-stats.service';
import type { CallFilter } from '../../../modules/calls/domain/call';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from '../../../modules/calls/persistence/call-counters';
import { CallsRepository } from '../../../modules/calls/persistence/calls.repository';
import { RecordingDatabase, sent, SqlCapture, SqlSnapshot } from '../../../database/sql-snapshot/sql-capture';
import { counterSetStatements } from './counter-sets';
import { DAYS_RANGE, describeInputs, HOURS_RANGE, IDS, LIMIT, seq } from './inputs';

const repo = (db: RecordingDatabase) => new CallsRepository(db.asDataSource());
const DAY = { from: new Date('2026-11-21T00:00:00.000Z'), to: new Date('2026-11-22T00:00:00.000Z') };

/** The page as CallsService.listCalls reads it: always confined to the bounds the count gave. */
function listPage(note: string, filter: CallFilter, offset = 0, ids: IdBounds = IDS): SqlCapture {
  return sent({ fn: 'CallsRepository.listPage', note, inputs: describeInputs({ filter, offset, limit: LIMIT, ids }) }, (db) =>
    repo(db).listPage(db, filter, offset, LIMIT, ids),
  );
}

function stats(note: string, filter: CallFilter): SqlCapture {
  return sent({ fn: 'CallsRepository.stats', note, inputs: describeInputs({ filter }) }, (db) => repo(db).stats(db, filter));
}

const callsRepository: SqlSnapshot = {
  file: 'src/modules/calls/persistence/calls.repository.sql',
  captures: [
    sent({ fn: 'CallsRepository.findById', note: 'an unrestricted key', inputs: describeInputs({ id: 42, clientId: null }) }, (db) =>
      repo(db).findById(42, null),
    ),
    sent({ fn: 'CallsRepository.findById', note: "a client key: only a call of its client's orders", inputs: describeInputs({ id: 42, clientId: 2 }) }, (db) =>
      repo(db).findById(42, 2),
    ),
    listPage('leads: one branch per lead, through (lead_id, id)', { leadIds: [11, 12], orderIds: [3] }),
    listPage('one order: one branch', { orderIds: [3] }),
    listPage(
      'orders, agents, statuses and a createdAt range: one branch per (order, agent)',
      {
        orderIds: [3, 4],
        userIds: [7, 8],
        statusIds: [1, 2],
        from: DAYS_RANGE.from,
        to: DAYS_RANGE.to,
      },
      100,
    ),
    listPage('the widest UNION ALL: 8 orders x 8 agents, 64 branches', { orderIds: seq(8), userIds: seq(8, 101) }),
    listPage('past 64 combinations: agents become a condition, one branch per order', { orderIds: [3, 4], userIds: seq(33, 101) }),
    listPage('no agent (userIds 0) beside an agent: the agent filter a condition, one branch per order', { orderIds: [3, 4], userIds: [0, 7] }),
    stats('leads: counted exactly through (lead_id, id)', { leadIds: [11, 12], statusIds: [1] }),
    stats('one order: the (order, status) counters, all time', { orderIds: [3] }),
    stats('orders and statuses over whole days: the (order, status) counters, boundary hours exactly', {
      orderIds: [3, 4],
      statusIds: [1, 2],
      from: DAYS_RANGE.from,
      to: DAYS_RANGE.to,
    }),
    stats('orders and agents over a few hours: the (order, user, status) counters', {
      orderIds: [3],
      userIds: [7, 8],
      from: HOURS_RANGE.from,
      to: HOURS_RANGE.to,
    }),
    stats('no agent (userIds 0): counted exactly, the per-user counters leave such calls out', { orderIds: [3], userIds: [0, 7] }),
    stats('no order nor lead (refused by the service): counted exactly', { userIds: [7] }),
  ],
};

const callCounters: SqlSnapshot = {
  file: 'src/modules/calls/persistence/call-counters.sql',
  captures: [
    ...counterSetStatements('CALL_COUNTERS', CALL_COUNTERS),
    ...counterSetStatements('CALL_USER_COUNTERS', CALL_USER_COUNTERS),
    sent({ fn: 'CallStatsService.attempts', note: "an order's calls of one day (CALL_COUNTERS.stats)", inputs: describeInputs({ orderId: 3, ...DAY }) }, (db) =>
      new CallStatsService(db.asDataSource()).attempts(3, DAY.from, DAY.to),
    ),
  ],
};

export const CALL_SNAPSHOTS: SqlSnapshot[] = [callsRepository, callCounters];
