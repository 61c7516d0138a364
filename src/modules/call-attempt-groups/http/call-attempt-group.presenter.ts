import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { CallAttemptGroup } from '../domain/call-attempt-group';

/** API.md leaves the read shape open ("not shown"): the identifier is `id`, the rest as in its table plus repeatLastInterval and dates. */
export class CallAttemptGroupView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'Стандартный дозвон' }) title: string;
  @ApiProperty({ type: 'integer', isArray: true, example: [5, 30, 120, 1440] }) intervals: number[];
  @ApiProperty() isDefault: boolean;
  @ApiProperty() resetAttemptsEnabled: boolean;
  @ApiProperty() repeatLastInterval: boolean;
  @ApiProperty({ example: '2025-11-22T09:30:00+00:00' }) createdAt: string;
  @ApiProperty({ example: '2025-11-22T09:30:00+00:00' }) updatedAt: string;
}

export function presentCallAttemptGroup(g: CallAttemptGroup): CallAttemptGroupView {
  return {
    id: g.id,
    title: g.title,
    intervals: g.intervals,
    isDefault: g.isDefault,
    resetAttemptsEnabled: g.resetAttemptsEnabled,
    repeatLastInterval: g.repeatLastInterval,
    createdAt: isoDateTime(g.createdAt),
    updatedAt: isoDateTime(g.updatedAt),
  };
}
