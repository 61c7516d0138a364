import type { CustomValues } from '../../custom-fields/domain/custom-value';
import type { OrderRedialRule } from '../../dialing/domain/redial-rule';
import type { CallSchedule } from './call-schedule';
import type { TransferNumber } from './order';

/** An order as stored, with its member sets; holidays as yyyy-mm-dd. */
export interface OrderRecord {
  id: number;
  code: string;
  /** The client that ordered it; null: the call center's own order. */
  clientId: number | null;
  serviceTitle: string;
  title: string;
  status: string;
  callSchedule: CallSchedule;
  callHolidayOverrides: string[];
  autoDialingEnabled: boolean;
  predictiveModeEnabled: boolean;
  aiDefaultLanguage: string | null;
  amdDetectionEnabled: boolean;
  callRecordRule: string;
  sipEndpointUsageScheme: string;
  showLeadContactsToAgent: boolean;
  callAttemptGroupId: number | null;
  qualifiedLeadsPerDayLimit: number | null;
  consentRequired: boolean;
  /** Calls a lead gets per local day; null: no cap. */
  maxAttemptsPerDay: number | null;
  /** Redial rules per call status, over the statuses' own. */
  redialRules: OrderRedialRule[];
  /** Its share of a dialer claim across orders, relative to the others' (1..100). */
  dialWeight: number;
  callScenarioId: number | null;
  leadTransformEnabled: boolean;
  speechRecognitionEnabled: boolean;
  ignoreLeadTimezone: boolean;
  defaultUtcOffset: number;
  defaultTimeZone: string | null;
  customValues: CustomValues;
  agentLeadCreationIsAllowed: boolean;
  agentLeadEditMode: string;
  autoProcessCall: boolean;
  createdAt: Date;
  updatedAt: Date;
  agentUserIds: number[];
  agentGroupIds: number[];
  sipEndpointIds: number[];
  transferNumbers: TransferNumber[];
}
