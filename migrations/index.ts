import { Foundation1763770000000 } from './1763770000000-foundation';
import { Idempotency1763775000000 } from './1763775000000-idempotency';
import { CampaignSetup1763780000000 } from './1763780000000-campaign-setup';
import { Leads1763790000000 } from './1763790000000-leads';
import { Notifications1763800000000 } from './1763800000000-notifications';
import { Calls1763810000000 } from './1763810000000-calls';
import { CallCounters1763820000000 } from './1763820000000-call-counters';
import { RateLimit1763830000000 } from './1763830000000-rate-limit';
import { WholeSecondCreatedAt1763840000000 } from './1763840000000-whole-second-created-at';
import { StatusCodes1763850000000 } from './1763850000000-status-codes';
import { LeadAsyncJobQueuedIndex1763862000000 } from './1763862000000-lead-async-job-queued-index';
import { ApiKeyRotation1763863000000 } from './1763863000000-api-key-rotation';
import { IdempotencyOwner1763863100000 } from './1763863100000-idempotency-owner';
import { CreatedAtTruncated1763863200000 } from './1763863200000-created-at-truncated';
import { CreatedAtRoundedLeads1763863300000 } from './1763863300000-created-at-rounded-leads';
import { LeadCreateFunction1763864000000 } from './1763864000000-lead-create-function';
import { ListIndexes1763864100000 } from './1763864100000-list-indexes';
import { LeadCountRollups1763864200000 } from './1763864200000-lead-count-rollups';
import { CoveringDayCounters1763864300000 } from './1763864300000-covering-day-counters';
import { LeadPhoneIndex1763864400000 } from './1763864400000-lead-phone-index';
import { Events1763900000000 } from './1763900000000-events';
import { Webhooks1763900100000 } from './1763900100000-webhooks';
import { LeadLookupIndexes1763900200000 } from './1763900200000-lead-lookup-indexes';
import { LeadTimeZones1763900300000 } from './1763900300000-lead-time-zones';
import { LeadPlanningCounters1763900310000 } from './1763900310000-lead-planning-counters';
import { LeadCreatePreviousByPhone1763900600000 } from './1763900600000-lead-create-previous-by-phone';
import { LeadCreateRow1795684548556 } from './1795684548556-lead-create-row';
import { AddClients1795686554314 } from './1795686554314-add-clients';
import { AddDncLists1795690350642 } from './1795690350642-add-dnc-lists';
import { AddLeadConsent1795690374158 } from './1795690374158-add-lead-consent';
import { AddLeadDailyCap1795691046474 } from './1795691046474-add-lead-daily-cap';
import { CallStatusOptOut1795691567482 } from './1795691567482-call-status-opt-out';
import { PlanningHold1795694907738 } from './1795694907738-planning-hold';
import { CounterUpdateTriggersNoNestedLoop1795700000000 } from './1795700000000-counter-update-triggers-no-nested-loop';
import { DialingDecision1795710000000 } from './1795710000000-dialing-decision';
import { DncOrderLocks1795710100000 } from './1795710100000-dnc-order-locks';
import { OrderCodePerClient1795720000000 } from './1795720000000-order-code-per-client';
import { CallOptOut1795730000000 } from './1795730000000-call-opt-out';
import { EventClient1795730100000 } from './1795730100000-event-client';
import { LeadCreateRowVariable1795740000000 } from './1795740000000-lead-create-row-variable';
import { DialerClaims1795790000000 } from './1795790000000-dialer-claims';
import { RowTriggers1795800000000 } from './1795800000000-row-triggers';
import { EventSequencerOnCitus1795800100000 } from './1795800100000-event-sequencer-on-citus';
import { KeysWithOrder1795800200000 } from './1795800200000-keys-with-order';
import { DistributeByOrder1795800300000 } from './1795800300000-distribute-by-order';
import { LeadCreatedByJob1795800400000 } from './1795800400000-lead-created-by-job';
import { LeadEventComparedColumns1795780000000 } from './1795780000000-lead-event-compared-columns';
import { RedialByOutcome1795780100000 } from './1795780100000-redial-by-outcome';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests load the same set. */
export const MIGRATIONS = [
  Foundation1763770000000,
  Idempotency1763775000000,
  CampaignSetup1763780000000,
  Leads1763790000000,
  Notifications1763800000000,
  Calls1763810000000,
  CallCounters1763820000000,
  RateLimit1763830000000,
  WholeSecondCreatedAt1763840000000,
  StatusCodes1763850000000,
  LeadAsyncJobQueuedIndex1763862000000,
  ApiKeyRotation1763863000000,
  IdempotencyOwner1763863100000,
  CreatedAtTruncated1763863200000,
  CreatedAtRoundedLeads1763863300000,
  LeadCreateFunction1763864000000,
  ListIndexes1763864100000,
  LeadCountRollups1763864200000,
  CoveringDayCounters1763864300000,
  LeadPhoneIndex1763864400000,
  Events1763900000000,
  Webhooks1763900100000,
  LeadLookupIndexes1763900200000,
  LeadTimeZones1763900300000,
  LeadPlanningCounters1763900310000,
  LeadCreatePreviousByPhone1763900600000,
  LeadCreateRow1795684548556,
  AddClients1795686554314,
  AddDncLists1795690350642,
  AddLeadConsent1795690374158,
  AddLeadDailyCap1795691046474,
  CallStatusOptOut1795691567482,
  PlanningHold1795694907738,
  CounterUpdateTriggersNoNestedLoop1795700000000,
  DialingDecision1795710000000,
  DncOrderLocks1795710100000,
  OrderCodePerClient1795720000000,
  CallOptOut1795730000000,
  EventClient1795730100000,
  LeadCreateRowVariable1795740000000,
  LeadEventComparedColumns1795780000000,
  RedialByOutcome1795780100000,
  DialerClaims1795790000000,
  RowTriggers1795800000000,
  EventSequencerOnCitus1795800100000,
  KeysWithOrder1795800200000,
  DistributeByOrder1795800300000,
  LeadCreatedByJob1795800400000,
];
