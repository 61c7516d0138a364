import type { IdBounds } from '../../../database/counters/counted-page';
import type { LeadFilter } from '../../../modules/leads/domain/lead';
import type { LeadLookupFilter } from '../../../modules/leads/domain/lead-lookup';
import type { NewLead } from '../../../modules/leads/domain/new-lead';
import { BatchRow, LeadBulkRepository } from '../../../modules/leads/persistence/lead-bulk.repository';
import { LEAD_COUNTERS } from '../../../modules/leads/persistence/lead-counters';
import { LEAD_PLANNING_COUNTERS } from '../../../modules/leads/persistence/lead-planning-counters';
import { LeadsRepository } from '../../../modules/leads/persistence/leads.repository';
import { LeadDialingRepository } from '../../../modules/leads/persistence/lead-dialing.repository';
import { RecordingDatabase, sent, SqlCapture, SqlSnapshot } from '../../../database/sql-snapshot/sql-capture';
import { counterSetStatements, counterStats } from './counter-sets';
import { DAYS_RANGE, describeInputs, FROM_WHOLE_HOUR, HOURS_RANGE, IDS, LIMIT, NOW, seq, SHORT_RANGE } from './inputs';

const repo = (db: RecordingDatabase) => new LeadsRepository(db.asDataSource());

/** A lead of order 3 with a value or null in every insert column. */
const NEW_LEAD: NewLead = {
  orderId: 3,
  phone: '+4930123456',
  leadType: 'straight',
  statusId: 1,
  name: 'Ada',
  sourceComment: null,
  ip: null,
  externalIdCrmA: 'crm-a-1',
  externalIdCrmB: null,
  externalIdCrmC: null,
  externalIdCrmD: null,
  createMethod: 'api',
  source: 'organic',
  planningCallAt: null,
  dialAfter: null,
  dialingHold: null,
  dialingHoldSince: null,
  priority: 0,
  utcOffset: 60,
  timeZone: 'Europe/Berlin',
  socialAId: null,
  socialBLogin: null,
  messengerUserName: null,
  messengerPhone: null,
  messengerId: null,
  adCampaignId: null,
  customValues: { color: 'red' },
  consent: null,
};

/** The page as LeadsService.listLeads reads it: unfiltered lists are not confined to id bounds. */
function listPage(note: string, filter: LeadFilter, offset = 0, bounds: IdBounds | null = IDS): SqlCapture {
  const ids = bounds ?? undefined;
  return sent({ fn: 'LeadsRepository.listPage', note, inputs: describeInputs({ filter, offset, limit: LIMIT, ids }) }, (db) =>
    repo(db).listPage(db, filter, offset, LIMIT, ids),
  );
}

function stats(note: string, filter: LeadFilter): SqlCapture {
  return sent({ fn: 'LeadsRepository.stats', note, inputs: describeInputs({ filter }) }, (db) => repo(db).stats(db, filter));
}

const leadsRepository: SqlSnapshot = {
  file: 'src/modules/leads/persistence/leads.repository.sql',
  captures: [
    listPage('no filter: the primary key from the start, no id bounds', {}, 0, null),
    listPage('one order: one branch', { orderIds: [3] }),
    listPage('statuses and a createdAt range: one branch per status', { statusIds: [1, 2], createdFrom: DAYS_RANGE.from, createdTo: DAYS_RANGE.to }, 100),
    listPage('orders and statuses: one branch per pair', { orderIds: [3, 4], statusIds: [1, 2, 3] }),
    listPage('the widest UNION ALL: 8 orders x 8 statuses, 64 branches', { orderIds: seq(8), statusIds: seq(8) }),
    listPage('past 64 combinations: statuses become a condition, one branch per order', { orderIds: [3, 4], statusIds: seq(33) }),
    listPage('more than 64 orders: no branch, the primary key within the bounds', { orderIds: seq(65) }),
    stats('no filter: all-time rollup over orders and the deltas', {}),
    stats('one order: all-time counters', { orderIds: [3] }),
    stats('statuses over whole days, cut hours at both ends: rollup days and hours, boundary hours counted exactly', {
      statusIds: [1, 2],
      createdFrom: DAYS_RANGE.from,
      createdTo: DAYS_RANGE.to,
    }),
    stats('orders and statuses over a few hours of one day: hour counters, no day', {
      orderIds: [3, 4],
      statusIds: [1],
      createdFrom: HOURS_RANGE.from,
      createdTo: HOURS_RANGE.to,
    }),
    stats('from a whole hour on: counters only, no boundary hour', { orderIds: [3], createdFrom: FROM_WHOLE_HOUR }),
    stats('up to a time: the last hour counted exactly', { orderIds: [3], createdTo: NOW }),
    stats('no whole hour in the range: counted from the table', { orderIds: [3], createdFrom: SHORT_RANGE.from, createdTo: SHORT_RANGE.to }),
    sent(
      { fn: 'LeadsRepository.insertLinked', note: 'the lead_create call', inputs: `lead: NEW_LEAD (order 3), ${describeInputs({ since: NOW, jobId: null })}` },
      (db) => repo(db).insertLinked(db, NEW_LEAD, { since: NOW, jobId: null }),
    ),
    sent(
      {
        fn: 'LeadsRepository.insertLinkedForJob',
        note: 'lead_create for a queued job',
        inputs: `lead: NEW_LEAD (order 3), ${describeInputs({ since: NOW, jobId: 'job-1' })}`,
      },
      (db) => repo(db).insertLinkedForJob(db, NEW_LEAD, { since: NOW, jobId: 'job-1' }),
    ),
    sent({ fn: 'LeadsRepository.findById', note: 'the lead as one JSON column', inputs: 'id: 7' }, (db) => repo(db).findById(7)),
    sent({ fn: 'LeadsRepository.findById', note: "a client key: only a lead of its client's orders", inputs: 'id: 7, access: { clientId: 2 }' }, (db) =>
      repo(db).findById(7, { clientId: 2 }),
    ),
    sent({ fn: 'LeadsRepository.lockForUpdate', note: "the update's row lock, with its order's client", inputs: 'id: 7' }, (db) =>
      repo(db).lockForUpdate(db.asManager(), 7),
    ),
    sent(
      {
        fn: 'LeadsRepository.update',
        note: 'only the fields given',
        inputs: describeInputs({ id: 7, changes: { statusId: 2, dialAfter: NOW, customValues: { color: 'blue' } } }),
      },
      (db) => repo(db).update(db.asManager(), 7, { statusId: 2, dialAfter: NOW, customValues: { color: 'blue' } }),
    ),
  ],
};

const bulk = new LeadBulkRepository();
const BATCH: BatchRow[] = [
  { index: 0, lead: NEW_LEAD, jobId: null },
  { index: 1, lead: { ...NEW_LEAD, name: 'Grace' }, jobId: null },
];
const JOB_BATCH: BatchRow[] = BATCH.map((r, i) => ({ ...r, jobId: `00000000-0000-0000-0000-00000000000${i + 1}` }));

function lookupPage(note: string, filter: LeadLookupFilter): SqlCapture {
  return sent({ fn: 'LeadBulkRepository.lookupPage', note, inputs: describeInputs({ filter, offset: 0, limit: LIMIT }) }, (db) =>
    bulk.lookupPage(db, filter, 0, LIMIT),
  );
}

const leadBulkRepository: SqlSnapshot = {
  file: 'src/modules/leads/persistence/lead-bulk.repository.sql',
  captures: [
    sent(
      {
        fn: 'LeadBulkRepository.insertBatch',
        note: 'timeouts, phone locks, the linked insert',
        inputs: `rows: NEW_LEAD twice, ${describeInputs({ since: NOW })}`,
      },
      (db) => bulk.insertBatch(db.asManager(), BATCH, NOW),
    ),
    sent(
      { fn: 'LeadBulkRepository.insertJobBatch', note: 'both jobs still queued', inputs: `rows: NEW_LEAD twice, ${describeInputs({ since: NOW })}` },
      (db) => bulk.insertJobBatch(db.asManager(), JOB_BATCH, NOW),
      (sql) => (sql.includes('FROM lead_async_job') ? JOB_BATCH.map((r) => ({ id: r.jobId })) : [{ ord: 0, id: 1, settled: true }]),
    ),
    lookupPage('by phone', { keys: { phone: '+4930123456' } }),
    lookupPage('by an external id, with every list filter', {
      keys: { externalIdCrmA: 'crm-a-1' },
      orderIds: [3],
      statusIds: [1, 2],
      createdFrom: DAYS_RANGE.from,
      createdTo: DAYS_RANGE.to,
    }),
  ],
};

const leadCounters: SqlSnapshot = {
  file: 'src/modules/leads/persistence/lead-counters.sql',
  captures: [
    ...counterSetStatements('LEAD_COUNTERS', LEAD_COUNTERS),
    counterStats('LEAD_COUNTERS', LEAD_COUNTERS, "LeadStatsService: an order's leads in a status category", { keys: { order_id: [3], status_id: [1, 2] } }),
  ],
};

const leadPlanningCounters: SqlSnapshot = {
  file: 'src/modules/leads/persistence/lead-planning-counters.sql',
  captures: [
    ...counterSetStatements('LEAD_PLANNING_COUNTERS', LEAD_PLANNING_COUNTERS),
    counterStats('LEAD_PLANNING_COUNTERS', LEAD_PLANNING_COUNTERS, 'LeadStatsService: calls due now', { keys: { order_id: [3] }, from: null, to: NOW }),
    counterStats('LEAD_PLANNING_COUNTERS', LEAD_PLANNING_COUNTERS, 'LeadStatsService: calls due within the hour', {
      keys: { order_id: [3] },
      from: new Date(NOW.getTime() + 1),
      to: new Date(NOW.getTime() + 3_600_000),
    }),
  ],
};

const dialing = new LeadDialingRepository();
const HELD = { reasons: ['daily_attempt_cap' as const], since: NOW };

const leadDialingRepository: SqlSnapshot = {
  file: 'src/modules/leads/persistence/lead-dialing.repository.sql',
  captures: [
    sent({ fn: 'LeadDialingRepository.lockListOrders', note: "an order's list", inputs: 'lists: [order 3]' }, (db) =>
      dialing.lockListOrders(db.asManager(), [{ scope: 'order', orderId: 3, clientId: null }]),
    ),
    sent({ fn: 'LeadDialingRepository.lockListOrders', note: "a client's list and an order's", inputs: 'lists: [client 2, order 3]' }, (db) =>
      dialing.lockListOrders(db.asManager(), [
        { scope: 'client', orderId: null, clientId: 2 },
        { scope: 'order', orderId: 3, clientId: null },
      ]),
    ),
    sent({ fn: 'LeadDialingRepository.lockListOrders', note: 'the global list, or an expiry batch: every order', inputs: "lists: 'every'" }, (db) =>
      dialing.lockListOrders(db.asManager(), 'every'),
    ),
    sent({ fn: 'LeadDialingRepository.lockOrderOfLead', note: 'before the lead row lock of an update or a call', inputs: 'leadId: 7' }, (db) =>
      dialing.lockOrderOfLead(db.asManager(), 7),
    ),
    sent({ fn: 'LeadDialingRepository.lockFacts', note: 'an order whose rules changed, the round after lead 100', inputs: 'orderId: 3, afterId: 100' }, (db) =>
      dialing.lockFacts(db.asManager(), { orderId: 3 }, NOW, 100),
    ),
    sent({ fn: 'LeadDialingRepository.lockFacts', note: 'the leads a list held, its entries gone', inputs: "phones: ['+4930123456'], heldBy: dnc" }, (db) =>
      dialing.lockFacts(db.asManager(), { phones: ['+4930123456'], heldBy: 'dnc' }, NOW),
    ),
    sent({ fn: 'LeadDialingRepository.factsOf', note: 'one lead, as it will be with a new number', inputs: "id: 7, phone: '+4930123457'" }, (db) =>
      dialing.factsOf(db.asManager(), 7, '+4930123457', NOW),
    ),
    sent(
      { fn: 'LeadDialingRepository.writeDecisions', note: 'only the rows whose decision differs', inputs: 'lead 7 capped, lead 8 planned' },
      (db) =>
        dialing.writeDecisions(db.asManager(), [
          { id: 7, decision: { planningCallAt: NOW, hold: HELD, capUntil: NOW } },
          { id: 8, decision: { planningCallAt: NOW, hold: null, capUntil: null } },
        ]),
      () => [{ n: 2 }],
    ),
    sent(
      { fn: 'LeadDialingRepository.holdListed', note: "an add to a client's list", inputs: "phones: ['+4930123456'], client 2, now: NOW" },
      (db) => dialing.holdListed(['+4930123456'], { scope: 'client', orderId: null, clientId: 2 }, db.asManager(), NOW),
      () => [{ n: 1 }],
    ),
  ],
};

export const LEAD_SNAPSHOTS: SqlSnapshot[] = [leadsRepository, leadBulkRepository, leadDialingRepository, leadCounters, leadPlanningCounters];
