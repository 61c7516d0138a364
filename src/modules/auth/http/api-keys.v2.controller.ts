import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../../common/domain-error';
import { IdPipe } from '../../../common/id.pipe';
import { ApiKeysService } from '../api-keys.service';
import { RequireScope } from './auth.decorators';
import { CreateApiKeyDto } from './dto/api-key.dto';
import { ApiEnvelope, ApiEnvelopeArray, ApiErrors, ApiIdParam, ApiKeyErrors } from '../../../common/openapi/envelope.decorators';

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

/** Management of API keys (scope admin). The key itself is returned once, at creation. */
@ApiTags('management: api keys')
@RequireScope('admin')
@ApiKeyErrors()
@Controller('v2/api-key')
export class ApiKeysManagementController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post('create')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an API key; data.key is shown only in this response (so Idempotency-Key is not honoured here: a replay would have to store the secret)',
    description:
      'Refuses with 400 naming each invalid field: a clientId that names no client, scopes other than exactly api with a clientId; ' +
      '409 when an active key has the name; 413 above the body limit.',
  })
  @ApiEnvelope(CreatedApiKeyView, { description: 'Created: data.key is the key (shown only here)' })
  @ApiErrors(400, 409, 413)
  create(@Body() dto: CreateApiKeyDto) {
    return this.keys.create(dto.name, dto.scopes, dto.clientId ?? null);
  }

  @Get()
  @ApiOperation({
    summary: 'List API keys (never the keys themselves); a replaced API_KEY shows revokedAt in the future while its grace period runs',
    description: 'Takes no parameters; needs the admin scope (403 without it).',
  })
  @ApiEnvelopeArray(ApiKeyView)
  async list() {
    const rows = await this.keys.list();
    const now = new Date();
    // A replaced API_KEY has a revokedAt in the future (its grace period) and is still active.
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      scopes: r.scopes,
      clientId: r.clientId,
      active: r.revokedAt === null || r.revokedAt > now,
      createdAt: r.createdAt.toISOString(),
      revokedAt: r.revokedAt?.toISOString() ?? null,
    }));
  }

  @Post('revoke/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke an API key (other instances stop accepting it within the cache TTL, 5 s)',
    description: 'Refuses an id that is not a positive integer (400); 404 when there is no such record.',
  })
  @ApiEnvelope('empty', { description: 'Revoked; data is []' })
  @ApiErrors(400, 404)
  @ApiIdParam('id', 2)
  async revoke(@Param('id', IdPipe) id: number) {
    if ((await this.keys.revoke(String(id))) === 0) throw DomainError.notFound('API key', id);
  }
}
