import { ApiProperty } from '@nestjs/swagger';
import type { ApiKeyRow } from '../persistence/api-keys.repository';

export class ApiKeyView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'crm-prod' }) name: string;
  @ApiProperty({ enum: ['api', 'admin', 'telephony'], isArray: true }) scopes: string[];
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: "a client key's client; null for an unrestricted key" })
  clientId: number | null;
  @ApiProperty({ description: 'false once revoked (a replaced API_KEY stays true during its grace period)' }) active: boolean;
  @ApiProperty({ example: '2026-03-04T05:06:07.000Z' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, example: null }) revokedAt: string | null;
}

export class CreatedApiKeyView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ description: 'the key itself, shown only here' }) key: string;
}

/** A stored key as listed (never its hash); `now` decides whether a scheduled revocation has come. */
export function presentApiKey(r: ApiKeyRow, now: Date): ApiKeyView {
  return {
    id: r.id,
    name: r.name,
    scopes: r.scopes,
    clientId: r.clientId,
    // A replaced API_KEY has a revokedAt in the future (its grace period) and is still active.
    active: r.revokedAt === null || r.revokedAt > now,
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
  };
}
