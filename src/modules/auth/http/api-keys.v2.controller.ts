import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../../common/domain-error';
import { IdPipe } from '../../../common/id.pipe';
import { PageQuery } from '../../../common/query';
import { ApiKeysService } from '../api-keys.service';
import { RequireScope } from './auth.decorators';
import { CreateApiKeyDto } from './dto/api-key.dto';
import { ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors } from '../../../common/openapi/envelope.decorators';
import { ApiKeyView, CreatedApiKeyView, presentApiKey } from './api-key.presenter';

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
    summary:
      'API keys by id ascending (data: {list, next, total}; never the keys themselves); a replaced API_KEY shows revokedAt in the future while its grace period runs',
    description: 'Needs the admin scope (403 without it). Refuses with 400 an offset below 0 or a limit outside 1..100.',
  })
  @ApiEnvelopeList(ApiKeyView)
  @ApiErrors(400)
  async list(@Query() q: PageQuery) {
    const page = await this.keys.listPage(q.offset, q.limit);
    const now = new Date();
    return { ...page, list: page.list.map((k) => presentApiKey(k, now)) };
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
