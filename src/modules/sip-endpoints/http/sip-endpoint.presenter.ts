import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { SipEndpoint } from '../domain/sip-endpoint';

export class SipEndpointView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: '+74951234567', description: 'E.164 with +' }) number: string;
  @ApiProperty({ example: 'Москва, основной' }) title: string;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ example: '2025-11-22T09:30:00+00:00' }) createdAt: string;
  @ApiProperty({ example: '2025-11-22T09:30:00+00:00' }) updatedAt: string;
}

export function presentSipEndpoint(e: SipEndpoint): SipEndpointView {
  return {
    id: e.id,
    number: e.number,
    title: e.title,
    isActive: e.isActive,
    createdAt: isoDateTime(e.createdAt),
    updatedAt: isoDateTime(e.updatedAt),
  };
}
