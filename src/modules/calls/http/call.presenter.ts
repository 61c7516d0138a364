import { isoDateTime } from '../../../common/dates';
import { CALL_DIRECTIONS, type CallRow, FINISH_INITIATORS } from '../domain/call';
import { ApiProperty } from '@nestjs/swagger';

/** The Call object of API.md (response model). */
export class CallView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: 'integer' }) sipEndpointId: number;
  @ApiProperty({ type: String, nullable: true, enum: FINISH_INITIATORS, example: 'client' }) finishInitiator: string | null;
  @ApiProperty({ enum: CALL_DIRECTIONS, example: 'outgoing' }) direction: string;
  @ApiProperty({ type: 'integer' }) leadId: number;
  @ApiProperty({ type: 'integer', description: '0 when no agent processed the call' }) userId: number;
  @ApiProperty({ type: 'integer' }) orderId: number;
  @ApiProperty({ type: 'integer' }) statusId: number;
  @ApiProperty({ type: 'integer' }) totalDurationSeconds: number;
  @ApiProperty({ type: 'integer' }) waitTimeDurationSeconds: number;
  @ApiProperty({ type: 'integer' }) talkTimeDurationSeconds: number;
  @ApiProperty() isPredictive: boolean;
  @ApiProperty({ example: '+79991234567' }) clientPhone: string;
  @ApiProperty() hasRecords: boolean;
  @ApiProperty({ example: '2026-03-04T05:06:07+00:00' }) createdAt: string;
}

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
