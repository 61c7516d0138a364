import { ApiProperty } from '@nestjs/swagger';
import type { CallStatus } from '../domain/call-status';

export class CallStatusView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'answered' }) code: string;
  @ApiProperty({ example: 'Answered' }) title: string;
  @ApiProperty({ enum: ['answered', 'not-answered', 'failed'] }) category: string;
  @ApiProperty() isCallback: boolean;
  @ApiProperty({ description: 'a call with it puts the number on a do-not-call list' }) isOptOut: boolean;
}

export function presentCallStatus(s: CallStatus) {
  return { id: s.id, code: s.code, title: s.title, category: s.category, isCallback: s.isCallback, isOptOut: s.isOptOut };
}
