import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime, shortDateTime } from '../../../common/dates';
import { AgentGroup, completeNames } from '../domain/agent-group';

class AgentGroupNamesView {
  @ApiProperty({ example: 'Продажи' }) ru: string;
  @ApiProperty({ example: 'Sales' }) gb: string;
}

/** Detail form (API.md): with createdBy/updatedBy, dates as dd.mm.yyyy hh:mm. */
export class AgentGroupDetailView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: AgentGroupNamesView }) names: AgentGroupNamesView;
  @ApiProperty({ type: 'integer', isArray: true }) agentIds: number[];
  @ApiProperty({ type: 'integer', description: '0 means the system' }) createdBy: number;
  @ApiProperty({ type: 'integer', description: '0 means the system' }) updatedBy: number;
  @ApiProperty({ example: '22.11.2025 09:30' }) createdAt: string;
  @ApiProperty({ example: '22.11.2025 09:30' }) updatedAt: string;
}

/** List form (API.md): no createdBy/updatedBy, dates as ISO 8601. */
export class AgentGroupListItemView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: AgentGroupNamesView }) names: AgentGroupNamesView;
  @ApiProperty({ type: 'integer', isArray: true }) agentIds: number[];
  @ApiProperty({ example: '2025-11-22T09:30:00+00:00' }) createdAt: string;
  @ApiProperty({ example: '2025-11-22T09:30:00+00:00' }) updatedAt: string;
}

export function presentAgentGroupDetail(g: AgentGroup): AgentGroupDetailView {
  return {
    id: g.id,
    names: completeNames(g.names),
    agentIds: g.agentIds,
    createdBy: g.createdBy,
    updatedBy: g.updatedBy,
    createdAt: shortDateTime(g.createdAt),
    updatedAt: shortDateTime(g.updatedAt),
  };
}

export function presentAgentGroupListItem(g: AgentGroup): AgentGroupListItemView {
  return {
    id: g.id,
    names: completeNames(g.names),
    agentIds: g.agentIds,
    createdAt: isoDateTime(g.createdAt),
    updatedAt: isoDateTime(g.updatedAt),
  };
}
