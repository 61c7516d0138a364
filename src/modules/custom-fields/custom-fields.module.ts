import { Module } from '@nestjs/common';
import { CustomFieldsDemoSeed } from './custom-fields.seed';
import { CustomFieldsService } from './custom-fields.service';
import { CustomFieldsManagementController, CustomFieldsV2Controller } from './http/custom-fields.v2.controller';
import { CustomFieldsRepository } from './persistence/custom-fields.repository';

/** Custom field definitions; exports CustomFieldsService.validateValues for orders and leads. */
@Module({
  controllers: [CustomFieldsV2Controller, CustomFieldsManagementController],
  providers: [CustomFieldsRepository, CustomFieldsService, CustomFieldsDemoSeed],
  exports: [CustomFieldsService],
})
export class CustomFieldsModule {}
