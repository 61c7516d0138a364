import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { RequireScope } from '../../auth/http/auth.decorators';
import { CustomFieldsService } from '../custom-fields.service';
import { CustomFieldView, presentCustomField } from './custom-field.presenter';
import { CreateCustomFieldDto, CustomFieldListQuery, UpdateCustomFieldDto } from './dto/custom-field.dto';
import { Isolation } from '../../../common/isolation';
import { ApiCreated, ApiEnvelope, ApiEnvelopeArray, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/**
 * API.md list, served under the documented path and the plural one of its usage examples. Field
 * definitions are schema, not customer data: every client key reads them all.
 */
@ApiTags('custom fields')
@ApiKeyErrors()
@Isolation('shared')
@Controller(['v2/custom-field', 'v2/custom-fields'])
export class CustomFieldsV2Controller {
  constructor(private readonly fields: CustomFieldsService) {}

  @Get()
  @ApiOperation({
    summary: 'All custom fields (no pagination; data is the array), ordered by sort then id',
    description: 'Refuses an essence other than leads or orders (400).',
  })
  @ApiEnvelopeArray(CustomFieldView)
  @ApiErrors(400)
  async list(@Query() query: CustomFieldListQuery) {
    return (await this.fields.list(query.essence)).map(presentCustomField);
  }
}

/** Management of custom field definitions (scope admin). */
@ApiTags('management: custom fields')
@RequireScope('admin')
@ApiKeyErrors()
@Controller('v2/custom-field')
export class CustomFieldsManagementController {
  constructor(private readonly fields: CustomFieldsService) {}

  @Post('create')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a custom field; data is {id}',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  create(@Body() dto: CreateCustomFieldDto) {
    return this.fields.create(dto);
  }

  @Post('update/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change title, sort or options (params replaces them); type and essence are immutable',
    description: 'Refuses with 400 naming each invalid field (also an id that is not a positive integer); 404 when there is no such record.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 413)
  @ApiIdParam('id', 7)
  async update(@Param('id', IdPipe) id: number, @Body() dto: UpdateCustomFieldDto) {
    await this.fields.update(id, dto);
  }

  @Get('detail/:id')
  @ApiOperation({
    summary: 'One custom field',
    description: 'Refuses an id that is not a positive integer (400); 404 when there is no such record.',
  })
  @ApiEnvelope(CustomFieldView)
  @ApiErrors(400, 404)
  @ApiIdParam('id')
  async detail(@Param('id', IdPipe) id: number) {
    return presentCustomField(await this.fields.detail(id));
  }
}
