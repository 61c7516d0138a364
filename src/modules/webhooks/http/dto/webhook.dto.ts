import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { INT32_MAX } from '../../../../common/id.pipe';
import { OptionalFlag, OptionalText, whenLeftOut } from '../../../../common/dto-fields';
import { Optional } from '../../../../common/presence';
import { OptionalIdQuery, PageQuery } from '../../../../common/query';
import { EVENT_TYPES } from '../../../events/domain/event';
import { DELIVERY_STATUSES, DeliveryStatus, MAX_DESCRIPTION_LENGTH, MAX_URL_LENGTH, MAX_WEBHOOK_ORDER_IDS, TEST_EVENT_TYPE } from '../../domain/webhook';

/** Event types plus "*": checked against the catalogue by the service (the message lists the known ones). */
const MAX_EVENT_TYPES = 20;

const Url = () => applyDecorators(IsString(), MaxLength(MAX_URL_LENGTH));
const Events = () => applyDecorators(IsArray(), ArrayMaxSize(MAX_EVENT_TYPES), IsString({ each: true }), MaxLength(64, { each: true }));
const OrderIds = () =>
  applyDecorators(IsArray(), ArrayMaxSize(MAX_WEBHOOK_ORDER_IDS), IsInt({ each: true }), Min(1, { each: true }), Max(INT32_MAX, { each: true }));

const URL_DOC = `https URL (http only with WEBHOOK_ALLOW_HTTP=true), at most ${MAX_URL_LENGTH} characters, no credentials; refused when its host resolves to a loopback, private, link-local, unique-local, multicast or other non-public address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)`;
const EVENTS_DOC = `event types (${EVENT_TYPES.filter((t) => t !== TEST_EVENT_TYPE).join(', ')}) or ["*"] for all; not empty`;
const ORDERS_DOC = `only events of these orders (absent or []: all); each must exist; at most ${MAX_WEBHOOK_ORDER_IDS}`;

/** The fields a webhook's create and update take alike. */
abstract class WebhookDescriptionDto {
  @ApiPropertyOptional({ example: 'CRM sync', maxLength: MAX_DESCRIPTION_LENGTH })
  @OptionalText(MAX_DESCRIPTION_LENGTH)
  description?: string;
}

export class CreateWebhookDto extends WebhookDescriptionDto {
  @ApiProperty({ example: 'https://crm.example.com/hooks/callcenter', maxLength: MAX_URL_LENGTH, description: URL_DOC })
  @Url()
  url: string;

  @ApiProperty({ type: [String], example: ['lead.created', 'lead.updated'], maxItems: MAX_EVENT_TYPES, description: EVENTS_DOC })
  @Events()
  events: string[];

  @ApiPropertyOptional({ type: 'integer', isArray: true, example: [1], maxItems: MAX_WEBHOOK_ORDER_IDS, description: ORDERS_DOC })
  @Optional()
  @OrderIds()
  orderIds?: number[];

  @ApiPropertyOptional({ description: whenLeftOut(true) })
  @OptionalFlag()
  isActive?: boolean;
}

export class UpdateWebhookDto extends WebhookDescriptionDto {
  @ApiPropertyOptional({ example: 'https://crm.example.com/hooks/callcenter', maxLength: MAX_URL_LENGTH, description: URL_DOC })
  @Optional()
  @Url()
  url?: string;

  @ApiPropertyOptional({ type: [String], example: ['*'], maxItems: MAX_EVENT_TYPES, description: EVENTS_DOC })
  @Optional()
  @Events()
  events?: string[];

  @ApiPropertyOptional({ type: 'integer', isArray: true, example: [], maxItems: MAX_WEBHOOK_ORDER_IDS, description: `${ORDERS_DOC}; replaces the stored list` })
  @Optional()
  @OrderIds()
  orderIds?: number[];

  @ApiPropertyOptional({ description: 'true turns the webhook on again (clearing disabledReason); false pauses it (its pending deliveries wait)' })
  @OptionalFlag()
  isActive?: boolean;
}

export class DeliveryListQuery extends PageQuery {
  @OptionalIdQuery({ example: 1 })
  webhookId?: number;

  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;
}
