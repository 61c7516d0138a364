import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { presentCall } from '../../calls/http/call.presenter';
import { presentLeadV2 } from '../../leads/http/lead.presenter';
import { presentOrder } from '../../orders/http/order.presenter';
import type { OrderRecord } from '../../orders/domain/order-record';
import { leadChangedFields, PublicEvent, type StoredEvent } from '../domain/event';
import { feedEventSchema } from './event-schemas';
import { callFromSnapshot, leadFromSnapshot, RowSnapshot } from '../persistence/row-snapshots';

export class EventFeedView {
  @ApiProperty({ type: 'array', items: feedEventSchema(), description: 'the events, each with the data of its type' }) list: object[];
  @ApiProperty({ type: 'integer', description: 'the position to pass as `after` next (the same `after` when the list is empty)', example: 1 }) next: number;
}

/** Revives what JSON turned into text in a stored OrderRecord (dates). */
function storedOrder(order: Record<string, unknown>): OrderRecord {
  const o = order as unknown as OrderRecord;
  return { ...o, createdAt: new Date(order.createdAt as string), updatedAt: new Date(order.updatedAt as string) };
}

/**
 * The public `data` of a stored event. Lead and call events hold a row snapshot (written by the
 * triggers) and are presented here by the modules' own presenters, so the feed and webhook
 * bodies show exactly what detail shows; `orderCodes` holds the codes of the page's orders.
 */
export function eventData(e: StoredEvent, orderCodes: Map<number, string>): object {
  const p = e.payload;
  switch (e.type) {
    case 'lead.created': {
      const lead = presentLeadV2(leadFromSnapshot(p.row as RowSnapshot, orderCodes.get(e.orderId ?? 0) ?? ''));
      return p.jobId ? { lead, jobId: p.jobId } : { lead };
    }
    case 'lead.updated': {
      const lead = presentLeadV2(leadFromSnapshot(p.row as RowSnapshot, orderCodes.get(e.orderId ?? 0) ?? ''));
      return { lead, changed: leadChangedFields((p.changed as string[] | null) ?? [], Object.keys(lead)) };
    }
    case 'call.created':
      // A snapshot from before calls recorded opt-outs has no opt_out: false, as the column's default.
      return { call: presentCall(callFromSnapshot(p.row as RowSnapshot)), optOut: (p.row as RowSnapshot).opt_out === true };
    case 'order.created':
    case 'order.updated': {
      const order = presentOrder(storedOrder(p.order as Record<string, unknown>), 'detail');
      return p.changed ? { order, changed: p.changed } : { order };
    }
    case 'lead.create_failed':
    case 'dnc.added':
    case 'dnc.removed':
    case 'webhook.test':
      return p;
  }
}

/** The order ids whose codes a page's lead events need. */
export const leadEventOrderIds = (events: StoredEvent[]): number[] => [
  ...new Set(events.filter((e) => e.type === 'lead.created' || e.type === 'lead.updated').map((e) => e.orderId ?? 0)),
];

export function presentEvent(e: StoredEvent, orderCodes: Map<number, string>): PublicEvent {
  return {
    position: e.position,
    id: e.id,
    type: e.type,
    timestamp: isoDateTime(e.createdAt),
    data: eventData(e, orderCodes),
    orderId: e.orderId,
    clientId: e.clientId,
  };
}

/** The feed's item: the public event without the filtering aids `orderId` and `clientId`. */
export function presentFeedItem(e: PublicEvent) {
  return { position: e.position, id: e.id, type: e.type, timestamp: e.timestamp, data: e.data };
}
