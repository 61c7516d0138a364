import { isoDateTime } from '../../../common/dates';
import { CallRow } from '../persistence/calls.repository';

/** The Call object of API.md, field by field. A call no agent processed has userId 0. */
export function presentCall(c: CallRow) {
  return {
    id: c.id,
    sipEndpointId: c.sipEndpointId,
    finishInitiator: c.finishInitiator,
    direction: c.direction,
    leadId: c.leadId,
    userId: c.userId ?? 0,
    orderId: c.orderId,
    statusId: c.statusId,
    totalDurationSeconds: c.totalDurationSeconds,
    waitTimeDurationSeconds: c.waitTimeDurationSeconds,
    talkTimeDurationSeconds: c.talkTimeDurationSeconds,
    isPredictive: c.isPredictive,
    clientPhone: c.clientPhone,
    hasRecords: c.hasRecords,
    createdAt: isoDateTime(c.createdAt),
  };
}
