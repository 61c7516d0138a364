import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../../common/domain-error';
import { IdPipe } from '../../../common/id.pipe';
import { ApiKeysService } from '../api-keys.service';
import { RequireScope } from './auth.decorators';
import { CreateApiKeyDto } from './dto/api-key.dto';

/** Management of API keys (scope admin). The key itself is returned once, at creation. */
@ApiTags('management: api keys')
@RequireScope('admin')
@Controller('v2/api-key')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post('create')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an API key; data.key is shown only in this response (so Idempotency-Key is not honoured here: a replay would have to store the secret)' })
  create(@Body() dto: CreateApiKeyDto) {
    return this.keys.create(dto.name, dto.scopes);
  }

  @Get()
  @ApiOperation({ summary: 'List API keys (never the keys themselves); a replaced API_KEY shows revokedAt in the future while its grace period runs' })
  async list() {
    const rows = await this.keys.list();
    const now = new Date();
    // A replaced API_KEY has a revokedAt in the future (its grace period) and is still active.
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      scopes: r.scopes,
      active: r.revokedAt === null || r.revokedAt > now,
      createdAt: r.createdAt.toISOString(),
      revokedAt: r.revokedAt?.toISOString() ?? null,
    }));
  }

  @Post('revoke/:id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key (other instances stop accepting it within the cache TTL, 5 s)' })
  async revoke(@Param('id', IdPipe) id: number) {
    if ((await this.keys.revoke(String(id))) === 0) throw DomainError.notFound('API key', id);
  }
}
