import type { CustomFieldRow } from '../domain/custom-field';
import { CUSTOM_FIELD_TYPES, ESSENCES } from '../domain/custom-value';
import { ApiProperty } from '@nestjs/swagger';

/** The Custom field object of API.md. */
export class CustomFieldOptionView {
  @ApiProperty({ example: 'flat' }) code: string;
  @ApiProperty({ type: 'integer' }) sort: number;
  @ApiProperty({ example: 'Квартира' }) title: string;
}

export class CustomFieldView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ example: 'Город' }) title: string;
  @ApiProperty({ enum: CUSTOM_FIELD_TYPES, example: 'string' }) type: string;
  @ApiProperty({ enum: ESSENCES, example: 'leads', description: 'what it belongs to: leads or orders' }) essence: string;
  @ApiProperty({ type: [CustomFieldOptionView], description: 'options of a list field; [] otherwise' }) params: CustomFieldOptionView[];
  @ApiProperty({ type: 'integer' }) sort: number;
}

export function presentCustomField(row: CustomFieldRow): CustomFieldView {
  return {
    id: row.id,
    title: row.title,
    type: row.type,
    essence: row.essence,
    params: row.options.map((o) => ({ code: o.code, sort: o.sort, title: o.title })),
    sort: row.sort,
  };
}
