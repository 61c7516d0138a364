import { Module } from '@nestjs/common';
import { CustomFieldsDemoSeed } from './custom-fields.seed';
import { CustomFieldsService } from './custom-fields.service';
import { CustomFieldsAdminController, CustomFieldsController } from './http/custom-fields.controller';
import { CustomFieldsRepository } from './persistence/custom-fields.repository';

/** Custom field definitions; exports CustomFieldsService.validateValues for orders and leads. */
@Module({
  controllers: [CustomFieldsController, CustomFieldsAdminController],
  providers: [CustomFieldsRepository, CustomFieldsService, CustomFieldsDemoSeed],
  exports: [CustomFieldsService],
})
export class CustomFieldsModule {}
