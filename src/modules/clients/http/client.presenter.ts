import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import type { Client } from '../domain/client';

export class ClientView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'Dental clinic' }) name: string;
  @ApiProperty({ example: '2026-03-04T05:06:07+00:00' }) createdAt: string;
  @ApiProperty({ example: '2026-03-04T05:06:07+00:00' }) updatedAt: string;
}

export function presentClient(c: Client): ClientView {
  return { id: c.id, name: c.name, createdAt: isoDateTime(c.createdAt), updatedAt: isoDateTime(c.updatedAt) };
}
