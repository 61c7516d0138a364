import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { type ClientAccess, reachesClient } from '../../common/auth-context';
import { DomainError, FieldError } from '../../common/domain-error';
import { CustomFieldsService } from '../custom-fields/custom-fields.service';
import { OrdersService } from '../orders/orders.service';
import type { CreateLeadInput } from './domain/lead';
import { buildNewLead, NewLead, OrderSettings } from './domain/new-lead';
import { normalisePhone } from './domain/phone';
import { StatusCataloguesService } from './status-catalogues.service';

/**
 * The input checks every lead write shares, none of which needs a lock: a create's whole
 * validation (prepareLead: synchronous, asynchronous, batch and upsert creates), custom values
 * (creates and updates) and a phone sent as a lookup key.
 */
@Injectable()
export class LeadPreparationService {
  constructor(
    private readonly orders: OrdersService,
    private readonly statuses: StatusCataloguesService,
    private readonly customFields: CustomFieldsService,
  ) {}

  /**
   * Every create rule that needs no lock; throws one validation error listing every problem.
   * The reads (usually cache hits) run one after another, on `m` when given (the workers' pool).
   */
  async prepareLead(input: CreateLeadInput, access: ClientAccess, m?: EntityManager): Promise<NewLead> {
    const order = await this.reachableOrder(input.orderId, access, m);
    const statuses = await this.statuses.leadStatuses(m);
    const custom = await this.customValues(input.customValues, m);
    const built = buildNewLead(input, { order, statuses, customValues: custom.value, now: new Date() });
    const errors = [...(built.ok ? [] : built.errors), ...custom.errors];
    if (!built.ok || errors.length) throw DomainError.validation(errors);
    return built.lead;
  }

  /**
   * The order's settings (cached, with its client), or null when there is no such order or
   * `access` does not reach it: a create names another client's order as one that does not exist.
   */
  async reachableOrder(orderId: number, access: ClientAccess, m?: EntityManager): Promise<OrderSettings | null> {
    const order = await this.orders.getOrderSettings(orderId, m);
    return order && reachesClient(access, order.clientId) ? order : null;
  }

  /** Custom values checked against the leads' fields: the stored map, or why not ({} and [] when none are sent). */
  async customValues(input: unknown, m?: EntityManager): Promise<{ value: Record<string, unknown>; errors: FieldError[] }> {
    if (input === undefined) return { value: {}, errors: [] };
    const custom = await this.customFields.validateValues(input, 'leads', 'customValues', m);
    return custom.ok ? { value: custom.value, errors: [] } : { value: {}, errors: custom.errors };
  }

  /** A phone normalised as on create (E.164); a 400 naming `field` when it is not a phone. */
  normalisedPhone(raw: string, field = 'phone'): string {
    const phone = normalisePhone(raw);
    if (!phone.ok) throw DomainError.invalidField(field, phone.message);
    return phone.e164;
  }
}
