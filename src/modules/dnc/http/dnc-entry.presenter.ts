import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { DNC_SCOPES, DNC_SOURCES, type DncEntry, type DncScope, type DncSource } from '../domain/dnc-entry';

export class DncEntryView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: '+79161234567' }) phone: string;
  @ApiProperty({ enum: DNC_SCOPES }) scope: DncScope;
  @ApiProperty({ type: 'integer', nullable: true }) orderId: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) clientId: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: '2030-01-01T00:00:00+00:00', description: 'null: never expires' }) expiresAt: string | null;
  @ApiProperty({ type: 'string', nullable: true }) reason: string | null;
  @ApiProperty({ enum: DNC_SOURCES, description: 'api: added by a request; call: an opt-out on a call' }) source: DncSource;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The call that put it there (source call)' }) callId: number | null;
  @ApiProperty({ example: '2026-03-04T05:06:07+00:00' }) createdAt: string;
}

export class DncCountView {
  @ApiProperty({ type: 'integer', description: 'numbers added or updated (add), removed (remove)' }) count: number;
}

export function presentDncEntry(e: DncEntry): DncEntryView {
  return {
    id: e.id,
    phone: e.phone,
    scope: e.scope,
    orderId: e.orderId,
    clientId: e.clientId,
    expiresAt: e.expiresAt ? isoDateTime(e.expiresAt) : null,
    reason: e.reason,
    source: e.source,
    callId: e.callId,
    createdAt: isoDateTime(e.createdAt),
  };
}
