import { whenLeftOut } from '../../../../common/dto-fields';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { CUSTOM_VALUES } from '../../../../common/openapi/envelope.decorators';
import { Nullable, Optional } from '../../../../common/presence';
import { MaxItemLength, MaxItems, MaxKeys } from '../../../../common/validation';
import { MAX_CUSTOM_VALUES } from '../../../custom-fields/domain/custom-value';
import { TIME_ZONE_MAX_LENGTH } from '../../domain/time-zone';
import { MAX_HOLIDAY_LENGTH, MAX_HOLIDAYS } from '../../domain/holidays';
import { TransferNumberDto } from './transfer-number.dto';
import {
  AGENT_LEAD_EDIT_MODES,
  AgentLeadEditMode,
  CALL_RECORD_RULES,
  CallRecordRule,
  LANGUAGE_INPUT_CODES,
  MAX_UTC_OFFSET,
  MIN_UTC_OFFSET,
  ORDER_STATUSES,
  OrderStatus,
  SIP_ENDPOINT_USAGE_SCHEMES,
  SipEndpointUsageScheme,
} from '../../domain/order';
import { OrderDialingRulesDto } from './order-dialing-rules.dto';

/** Agents, agent groups or numbers of one order: the existing contract's cap, checked in one query each. */
const MAX_IDS = 1000;
const MAX_TRANSFER_NUMBERS = 50;
const MAX_SCHEDULE_DAYS = 7;

const OptionalBool = (description?: string) => applyDecorators(ApiPropertyOptional({ type: Boolean, description }), Optional(), IsBoolean());

const IdList = () => applyDecorators(IsArray(), ArrayMaxSize(MAX_IDS), IsInt({ each: true }), Min(1, { each: true }), Max(INT32_MAX, { each: true }));
const idListDoc = (description: string, example: number[] = [1]): ApiPropertyOptions => ({
  type: 'integer',
  isArray: true,
  maxItems: MAX_IDS,
  example,
  description: `${description}; at most ${MAX_IDS}`,
});

const CODE_UNIQUE = "unique within the order's client (orders of no client share one namespace), not across clients";

/** Agents and agent groups: what a client key may name (an id it does not reach reads as one that does not exist). */
const REACHED_REFERENCE = "must exist and, with a client key, be one the key reaches (of its client's orders)";

const PositiveInt = () => applyDecorators(IsInt(), Min(1), Max(INT32_MAX));
const clientIdDoc = (example: number | null, description: string): ApiPropertyOptions => ({
  type: 'integer',
  nullable: true,
  minimum: 1,
  example,
  description: `extension: ${description}`,
});

/** Fields that are optional on create and on update. */
export class OrderFieldsDto extends OrderDialingRulesDto {
  @ApiPropertyOptional(clientIdDoc(1, "the client that ordered it (must exist); null = the call center's own; a client key may only send its own"))
  @Nullable()
  @PositiveInt()
  clientId?: number | null;

  @ApiPropertyOptional({
    example: 'dental-clinic-moscow',
    maxLength: 64,
    description: `a-z, 0-9, - and _, up to 64; ${CODE_UNIQUE}; generated from title on create when omitted (counting only that client's codes)`,
  })
  @Optional()
  @IsString()
  code?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    maxItems: MAX_SCHEDULE_DAYS,
    example: [['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['09:00', '21:00'], ['10:00', '18:00'], []],
    description:
      'up to 7 items, Monday first: [start, end] as HH:MM (start < end, end may be 24:00) or [] for a day off (seven [] = never calls); responses always have 7. Omitted on create: 09:00-21:00 every day',
  })
  @Optional()
  @Allow()
  callSchedule?: unknown;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: MAX_HOLIDAY_LENGTH },
    maxItems: MAX_HOLIDAYS,
    example: ['01.01.2027', '2027-03-08'],
    description:
      `holidays in any parsable date format (dd.mm.yyyy, yyyy-mm-dd, ISO 8601, "8 March 2027", ...); returned as dd.mm.yyyy; ` +
      `at most ${MAX_HOLIDAYS} (a year's worth), each at most ${MAX_HOLIDAY_LENGTH} characters`,
  })
  @Optional()
  @Allow()
  @MaxItems(MAX_HOLIDAYS, `dates (a year's worth)`)
  @MaxItemLength(MAX_HOLIDAY_LENGTH)
  callHolidayOverrides?: unknown;

  @OptionalBool('calls are allowed for the order')
  autoDialingEnabled?: boolean;

  @OptionalBool('calls are allowed in predictive mode')
  predictiveModeEnabled?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, enum: LANGUAGE_INPUT_CODES, description: 'ru or gb (en accepted for gb); null clears it' })
  @Nullable()
  @IsString()
  aiDefaultLanguage?: string | null;

  @OptionalBool('answering machine detection')
  amdDetectionEnabled?: boolean;

  @ApiPropertyOptional({ enum: CALL_RECORD_RULES })
  @Optional()
  @IsIn(CALL_RECORD_RULES)
  callRecordRule?: CallRecordRule;

  @ApiPropertyOptional({ enum: SIP_ENDPOINT_USAGE_SCHEMES })
  @Optional()
  @IsIn(SIP_ENDPOINT_USAGE_SCHEMES)
  sipEndpointUsageScheme?: SipEndpointUsageScheme;

  @ApiPropertyOptional(idListDoc(`users (agents) allowed to work in the order; ${REACHED_REFERENCE}; duplicates are dropped`))
  @Optional()
  @IdList()
  agentUserIds?: number[];

  @ApiPropertyOptional(idListDoc(`agent groups allowed to work in the order; ${REACHED_REFERENCE}`))
  @Optional()
  @IdList()
  agentGroupIds?: number[];

  @OptionalBool('agents see lead contacts')
  showLeadContactsToAgent?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 1,
    description: 'call attempt interval group; must exist; on create defaults to the default group',
  })
  @Optional()
  @PositiveInt()
  callAttemptGroupId?: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, example: 50, description: 'max qualified leads per day; null = no limit' })
  @Nullable()
  @PositiveInt()
  qualifiedLeadsPerDayLimit?: number | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, example: 1, description: 'call scenario; must exist' })
  @Optional()
  @PositiveInt()
  callScenarioId?: number;

  @OptionalBool('an agent may change the lead type')
  leadTransformEnabled?: boolean;

  @OptionalBool('call recognition is enabled')
  speechRecognitionEnabled?: boolean;

  @OptionalBool('the lead time zone is ignored (the order default offset is used)')
  ignoreLeadTimezone?: boolean;

  @ApiPropertyOptional({
    ...CUSTOM_VALUES,
    maxProperties: MAX_CUSTOM_VALUES,
    example: { '9': 'Ирина Белова', '15': 'real_estate' },
    description: `custom field id (orders) to value matching the field type; multiselect as comma-separated codes; replaces the stored map; at most ${MAX_CUSTOM_VALUES} values`,
  })
  @Optional()
  @Allow()
  @MaxKeys(MAX_CUSTOM_VALUES, 'values (one per custom field)')
  customValues?: unknown;

  @OptionalBool('an agent may create leads')
  agentLeadCreationIsAllowed?: boolean;

  @ApiPropertyOptional({ enum: AGENT_LEAD_EDIT_MODES })
  @Optional()
  @IsIn(AGENT_LEAD_EDIT_MODES)
  agentLeadEditMode?: AgentLeadEditMode;

  @OptionalBool('the call is processed automatically')
  autoProcessCall?: boolean;

  @ApiPropertyOptional({
    type: [TransferNumberDto],
    maxItems: MAX_TRANSFER_NUMBERS,
    description: `numbers a call can be transferred to; replaces the stored list; at most ${MAX_TRANSFER_NUMBERS}`,
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_TRANSFER_NUMBERS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => TransferNumberDto)
  transferNumbers?: TransferNumberDto[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_UTC_OFFSET,
    maximum: MAX_UTC_OFFSET,
    example: 3,
    description: whenLeftOut(0, 'extension: UTC offset (hours) used for leads without one and for the order day'),
  })
  @Optional()
  @IsInt()
  @Min(MIN_UTC_OFFSET)
  @Max(MAX_UTC_OFFSET)
  defaultUtcOffset?: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: TIME_ZONE_MAX_LENGTH,
    example: 'Europe/Moscow',
    description:
      "extension: IANA time zone (real DST rules) of the order's day (daily limits, stats) and of leads that get no zone of their own " +
      '(no timeZone, utcOffset or single-zone phone country); null = none, defaultUtcOffset applies; an unknown name is a 400',
  })
  @Nullable()
  @IsString()
  @MaxLength(TIME_ZONE_MAX_LENGTH)
  defaultTimeZone?: string | null;
}

export class CreateOrderDto extends OrderFieldsDto {
  @ApiProperty({ example: 'Стоматология «Улыбка»: запись на приём', maxLength: 255 })
  @IsString()
  @Length(1, 255)
  serviceTitle: string;

  @ApiProperty({ example: 'Запись в стоматологию', maxLength: 255 })
  @IsString()
  @Length(1, 255)
  title: string;

  @ApiProperty({ enum: ORDER_STATUSES })
  @IsIn(ORDER_STATUSES)
  status: OrderStatus;

  @ApiProperty(idListDoc('virtual numbers; non-empty; must exist; order is kept', [1, 2]))
  @IdList()
  @ArrayNotEmpty({ message: 'must not be empty' })
  sipEndpointIds: number[];
}

export class UpdateOrderDto extends OrderFieldsDto {
  // null: the demo order 1's own client, so "Try it out" on order 1 leaves it where it is.
  @ApiPropertyOptional(
    clientIdDoc(null, "moves the order, its leads and calls, to this client (must exist); null = the call center's own; a client key cannot"),
  )
  declare clientId?: number | null;

  // The example is the demo order 1's own code, so "Try it out" on order 1 does not clash with another order's code.
  @ApiPropertyOptional({ example: 'novostroyki-moskvy', maxLength: 64, description: `a-z, 0-9, - and _, up to 64; ${CODE_UNIQUE}; 409 when taken` })
  declare code?: string;

  @ApiPropertyOptional({ example: 'ГК «Северный квартал»: квалификация лидов на новостройки', maxLength: 255 })
  @Optional()
  @IsString()
  @Length(1, 255)
  serviceTitle?: string;

  @ApiPropertyOptional({ example: 'Новостройки Москвы', maxLength: 255 })
  @Optional()
  @IsString()
  @Length(1, 255)
  title?: string;

  @ApiPropertyOptional({ enum: ORDER_STATUSES })
  @Optional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;

  @ApiPropertyOptional(idListDoc('replaces the virtual numbers; non-empty when sent'))
  @Optional()
  @IdList()
  @ArrayNotEmpty({ message: 'must not be empty' })
  sipEndpointIds?: number[];
}
