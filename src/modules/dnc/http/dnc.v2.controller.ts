import { Body, Controller, Get, HttpCode, Post, Query, type Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { ClientAccess, Scope } from '../../../common/auth-context';
import { Access, Isolation, KeyScopes } from '../../../common/isolation';
import { ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiKeyErrors } from '../../../common/openapi/envelope.decorators';
import { DncService } from '../dnc.service';
import { DncCountView, DncEntryView, presentDncEntry } from './dnc-entry.presenter';
import { DncAddDto, DncListQuery, DncRemoveDto } from './dto/dnc.dto';

const WHICH_LIST =
  "orderId names an order's list, clientId a client's list, neither the global list (a client key: its own client's list); both: 400. " +
  "A client key reaches its client's list and its orders' lists only: another client's order or client is refused as a missing one (400 naming it).";

/** The body's "Try it out" example: orderId and clientId exclude each other, so the example names one list only. */
const DncListBody = (dto: Type<unknown>) => ApiBody({ schema: { allOf: [{ $ref: getSchemaPath(dto) }], example: { phones: ['+79161234567'], orderId: 1 } } });

/** Do-not-call lists (scope api): the global one, a client's, an order's. */
@ApiTags('do-not-call')
@ApiExtraModels(DncAddDto, DncRemoveDto)
@ApiKeyErrors()
@Isolation('scoped')
@Controller('v2/dnc')
export class DncV2Controller {
  constructor(private readonly dnc: DncService) {}

  @Post('add')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Put numbers on a do-not-call list (data: {count}, the numbers added or updated)',
    description:
      `${WHICH_LIST} A number already on the list gets the new reason and keeps the later expiry (no expiry wins over any date): ` +
      "an add never shortens an entry, and an opt-out's entry (source call) stays one. " +
      'Refuses with 400: an invalid number (naming phones[i]; nothing is stored), 0 or more than 1000 numbers, expiresAt not in the future or without a UTC offset, a reason over 255 characters.',
  })
  @DncListBody(DncAddDto)
  @ApiEnvelope(DncCountView)
  @ApiErrors(400, 413)
  async add(@Body() dto: DncAddDto, @Access() access: ClientAccess): Promise<DncCountView> {
    return { count: await this.dnc.add(access, dto) };
  }

  @Post('remove')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Remove numbers from exactly one do-not-call list (data: {count}, the numbers removed)',
    description:
      `${WHICH_LIST} Refuses with 400 an invalid number (naming phones[i]; nothing changes). ` +
      "An opt-out's entry (source call) is permanent: removing one needs a key of the admin scope, else 403 and nothing changes.",
  })
  @DncListBody(DncRemoveDto)
  @ApiEnvelope(DncCountView)
  @ApiErrors(400, 413)
  async remove(@Body() dto: DncRemoveDto, @Access() access: ClientAccess, @KeyScopes() scopes: readonly Scope[]): Promise<DncCountView> {
    return { count: await this.dnc.remove(access, dto, scopes.includes('admin')) };
  }

  @Get()
  @ApiOperation({
    summary: 'Do-not-call entries by id ascending (data: {list, next, total})',
    description:
      'Filters: phone (any format a lead accepts), orderId, clientId, scope (global, client, order). ' +
      "A client key sees its client's list and its orders' lists only. Refuses with 400 a bad filter, an offset below 0 or a limit outside 1..100.",
  })
  @ApiEnvelopeList(DncEntryView)
  @ApiErrors(400)
  async list(@Query() q: DncListQuery, @Access() access: ClientAccess) {
    const { offset, limit, ...filter } = q;
    const page = await this.dnc.list(access, filter, offset, limit);
    return { ...page, list: page.list.map(presentDncEntry) };
  }
}
