import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { CallScenario } from '../domain/call-scenario';

export class CallScenarioView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'Квалификация лида' }) title: string;
  @ApiProperty({ description: "'' when none" }) description: string;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ example: '2025-11-22T09:30:00+00:00' }) createdAt: string;
  @ApiProperty({ example: '2025-11-22T09:30:00+00:00' }) updatedAt: string;
}

export function presentCallScenario(s: CallScenario): CallScenarioView {
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    isActive: s.isActive,
    createdAt: isoDateTime(s.createdAt),
    updatedAt: isoDateTime(s.updatedAt),
  };
}
