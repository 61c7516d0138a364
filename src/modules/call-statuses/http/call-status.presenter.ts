import { ApiProperty } from '@nestjs/swagger';
import { RedialRuleView } from '../../dialing/http/redial-rule.dto';
import type { CallStatus } from '../domain/call-status';

export class CallStatusView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'answered' }) code: string;
  @ApiProperty({ example: 'Answered' }) title: string;
  @ApiProperty({ enum: ['answered', 'not-answered', 'failed'] }) category: string;
  @ApiProperty() isCallback: boolean;
  @ApiProperty({ description: 'a call with it puts the number on a do-not-call list' }) isOptOut: boolean;
  @ApiProperty({ type: RedialRuleView, description: "what a call ending in it does to the lead's next call (an order's redialRules override it)" })
  redial: RedialRuleView;
}

export function presentCallStatus(s: CallStatus) {
  return { id: s.id, code: s.code, title: s.title, category: s.category, isCallback: s.isCallback, isOptOut: s.isOptOut, redial: { ...s.redial } };
}
