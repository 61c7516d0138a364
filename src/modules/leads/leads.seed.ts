import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { seededRandom } from '../../database/seed/random';
import { CONSENT_DEMO_ORDER, DEMO_ORDERS } from '../orders/orders.seed';
import { OrdersService } from '../orders/orders.service';
import { slugifyOrderCode } from '../orders/domain/order-code';
import { CreateLeadInput } from './domain/lead';
import { LeadStatus } from './domain/lead-status';
import { buildNewLead, NewLead, OrderSettings } from './domain/new-lead';
import { StatusCataloguesService } from './status-catalogues.service';
import { LEAD_COLUMNS } from './persistence/lead-columns';
import {
  CITIES_EN,
  CITIES_RU,
  COUNTRY_WEIGHTS,
  digits,
  EN_NAMES,
  phoneOf,
  pick,
  Rand,
  RU_NAMES,
  SOURCE_WEIGHTS,
  STATUS_WEIGHTS,
  weighted,
  ZONED_DEMO_LEADS,
  zonePhoneOf,
} from './leads.seed-data';

const LEADS = 320;
const SPREAD_DAYS = 21;
const SECONDARY_SHARE = 0.12;
/** Leads of an order the demo does not describe: no interest, no budget. */
const NO_PROFILE = { interests: [] as string[], answers: ['callback'], budget: false };

type LeadProfile = typeof NO_PROFILE;

/** The leads of the order that requires consent (orders.seed.ts): with consent, then without. */
export const CONSENT_DEMO_LEADS = [
  { phone: '+79167003344', name: 'Ольга Морозова', withConsent: true },
  { phone: '+79167005566', name: 'Павел Никитин', withConsent: false },
] as const;

/** What every demo lead is drawn against: the demo orders and the catalogues. */
interface SeedContext {
  orders: OrderSettings[];
  english: Set<number>;
  profileOf: Map<number, LeadProfile>;
  openedOf: Map<number, number>;
  field: (title: string) => number | undefined;
  catalogue: LeadStatus[];
  now: Date;
}

/** The random streams: `rz` only for the zoned leads, so they leave every other demo value as it was. */
interface SeedRandom {
  r: Rand;
  rz: Rand;
}

interface SeedLead {
  lead: NewLead;
  createdAt: Date;
  qualifiedAt: Date | null;
  selectionType: string | null;
  city: string | null;
}

/**
 * Demo leads (seed order 40): a few hundred across the demo orders, phones of several countries, some secondary, every status
 * category and source. Built through the domain rules, inserted with one multi-row INSERT, then linked with one UPDATE.
 */
@Injectable()
export class LeadsDemoSeed {
  private readonly logger = new Logger('LeadsDemoSeed');

  constructor(
    seeder: DemoSeeder,
    private readonly orders: OrdersService,
    private readonly statuses: StatusCataloguesService,
  ) {
    seeder.add({ name: 'leads', order: 40, run: (m) => this.run(m) });
    seeder.add({ name: 'leads:consent', order: 55, run: (m) => this.consentLeads(m) });
  }

  /** The consent order's leads, two days old: one with recorded consent (planned), one without (not dialled, callable: no_consent). */
  private async consentLeads(m: EntityManager): Promise<void> {
    const rows: { id: number }[] = await m.query(`SELECT id FROM call_order WHERE code = $1`, [CONSENT_DEMO_ORDER.code]);
    const order = rows.length ? await this.orders.getOrderSettings(rows[0].id, m) : null;
    if (!order) return;
    const now = new Date();
    const statuses = await this.statuses.leadStatuses(m);
    const createdAt = new Date(now.getTime() - 2 * 86_400_000);
    const consent = {
      givenAt: new Date(createdAt.getTime() - 180_000).toISOString(),
      source: 'web_form',
      evidenceUrl: 'https://consent.example/certificates/3f9c2a71',
      text: 'Согласен(на) на звонки страховой компании «Надёжный дом» по продлению полиса',
    };
    const leads = CONSENT_DEMO_LEADS.map(({ phone, name, withConsent }, i) => {
      const input: CreateLeadInput = { leadType: 'straight', phone, orderId: order.id, orderCode: order.code, name, source: 'organic' };
      const built = buildNewLead(withConsent ? { ...input, consent } : input, { order, statuses, customValues: {}, now });
      if (!built.ok) throw new Error(`consent demo lead ${i}: ${JSON.stringify(built.errors)}`);
      return { lead: built.lead, createdAt: new Date(createdAt.getTime() + i * 60_000), qualifiedAt: null, selectionType: null, city: null };
    });
    await insert(m, leads);
  }

  private async run(m: EntityManager): Promise<void> {
    const ctx = await this.context(m);
    if (!ctx) {
      this.logger.warn('no demo orders: demo leads skipped');
      return;
    }
    const random: SeedRandom = { r: seededRandom(20261122), rz: seededRandom(14) };
    const phonesByOrder = new Map<number, string[]>();
    const leads = Array.from({ length: LEADS }, (_, i) => demoLead(ctx, random, i, phonesByOrder));
    // The README tour and the OpenAPI example look this one up (GET /v2/lead/?externalIdCrmA=CRM-A-100000).
    leads[0].lead.externalIdCrmA ??= 'CRM-A-100000';
    leads.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const ids = await insert(m, leads);
    await link(m, leads, ids);
    this.logger.log(`${ids.length} demo leads in ${ctx.orders.length} orders`);
  }

  /** The demo orders, their settings and lead profiles, the lead custom fields and statuses; null without demo orders. */
  private async context(m: EntityManager): Promise<SeedContext | null> {
    const codes = DEMO_ORDERS.map((o) => o.code ?? slugifyOrderCode(o.title));
    const rows: { id: number; title: string }[] = await m.query(`SELECT id, title FROM call_order WHERE code = ANY($1) OR title = ANY($2) ORDER BY id`, [
      codes,
      DEMO_ORDERS.map((o) => o.title),
    ]);
    // On the seed transaction's connection, one after another: never a second pool connection while it is held.
    const orders: OrderSettings[] = [];
    for (const o of rows) {
      const settings = await this.orders.getOrderSettings(o.id, m);
      if (settings) orders.push(settings);
    }
    if (orders.length === 0) return null;
    const english = new Set(rows.filter((o) => /^[\x20-\x7e]+$/.test(o.title)).map((o) => o.id));
    // Each lead fits its order: a dental clinic's lead is not interested in a flat.
    const profileOf = new Map(rows.map((o) => [o.id, DEMO_ORDERS.find((d) => d.title === o.title)?.leadProfile ?? NO_PROFILE]));
    const openedAt: { id: number; created_at: Date }[] = await m.query(`SELECT id, created_at FROM call_order WHERE id = ANY($1)`, [rows.map((o) => o.id)]);
    const openedOf = new Map(openedAt.map((o) => [o.id, o.created_at.getTime()]));
    const fields: { id: number; title: string }[] = await m.query(`SELECT id, title FROM custom_field WHERE essence = 'leads'`);
    const field = (title: string) => fields.find((f) => f.title === title)?.id;
    const catalogue: LeadStatus[] = await this.statuses.leadStatuses(m);
    return { orders, english, profileOf, openedOf, field, catalogue, now: new Date() };
  }
}

/** The i-th demo lead, drawn from the streams in a fixed order (the same demo data on every fresh database). */
function demoLead(ctx: SeedContext, { r, rz }: SeedRandom, i: number, phonesByOrder: Map<number, string[]>): SeedLead {
  const { now, catalogue } = ctx;
  const order = ctx.orders[i % ctx.orders.length];
  const en = ctx.english.has(order.id);
  const known = phonesByOrder.get(order.id) ?? [];
  const country = weighted(r, en ? COUNTRY_WEIGHTS.en : COUNTRY_WEIGHTS.ru);
  const usual = known.length > 0 && r() < SECONDARY_SHARE ? pick(r, known) : phoneOf(r, country);
  const zoned = i % 10 === 3 ? ZONED_DEMO_LEADS[Math.floor(i / 10) % ZONED_DEMO_LEADS.length] : null;
  const phone = zoned ? zonePhoneOf(rz, zoned.country) : usual;
  phonesByOrder.set(order.id, [...known, phone]);
  const { input, city, customValues } = demoInput(ctx, r, { order, en, phone, i, timeZone: zoned?.timeZone });
  const built = buildNewLead(input, { order, statuses: catalogue, customValues, now });
  if (!built.ok) throw new Error(`demo lead ${i}: ${JSON.stringify(built.errors)}`);
  const statusId = weighted(r, STATUS_WEIGHTS);
  const category = catalogue.find((s) => s.id === statusId)?.category ?? 'in-progress';
  // Within the last SPREAD_DAYS, and never before its order was opened.
  const opened = ctx.openedOf.get(order.id) ?? now.getTime() - SPREAD_DAYS * 86_400_000;
  const createdAt = new Date(Math.max(opened + 60_000, now.getTime() - Math.floor(r() * SPREAD_DAYS * 86_400_000)));
  const createMethod = weighted(r, [
    ['API', 7],
    ['form', 2],
    ['manual', 1],
  ]);
  return {
    // A lead past in-progress is no longer dialled: stopped, as a call that reached it stops it.
    lead: {
      ...built.lead,
      statusId,
      createMethod,
      ...(category === 'in-progress' ? {} : { planningCallAt: null, dialAfter: null, dialingHold: null, dialingHoldSince: null }),
    },
    createdAt,
    qualifiedAt: category === 'qualified' ? new Date(Math.min(now.getTime(), createdAt.getTime() + (1 + Math.floor(r() * 48)) * 3_600_000)) : null,
    selectionType: input.leadType === 'selection' ? pick(r, ['auto', 'manual']) : null,
    city: r() < 0.5 ? city : null,
  };
}

/** A demo lead's create input and custom values, fitting its order's profile. */
function demoInput(
  ctx: SeedContext,
  r: Rand,
  lead: { order: OrderSettings; en: boolean; phone: string; i: number; timeZone?: string },
): { input: CreateLeadInput; city: string; customValues: Record<string, unknown> } {
  const { order, en } = lead;
  const { field } = ctx;
  const profile = ctx.profileOf.get(order.id) ?? NO_PROFILE;
  const source = weighted(r, SOURCE_WEIGHTS);
  const leadType = r() < 0.85 ? 'straight' : 'selection';
  const city = pick(r, en ? CITIES_EN : CITIES_RU);
  const customValues: Record<string, unknown> = {};
  if (field('Город') && r() < 0.6) customValues[field('Город')!] = city;
  if (field('Интерес') && profile.interests.length > 0 && r() < 0.4) customValues[field('Интерес')!] = pick(r, profile.interests);
  if (field('Бюджет') && profile.budget && r() < 0.3) customValues[field('Бюджет')!] = 1_000_000 + Math.floor(r() * 90) * 100_000;
  const input: CreateLeadInput = {
    leadType,
    phone: lead.phone.slice(1),
    orderId: order.id,
    orderCode: order.code,
    name: pick(r, en ? EN_NAMES : RU_NAMES),
    sourceComment:
      r() < 0.5
        ? JSON.stringify({ form: pick(r, ['quiz', 'callback', 'landing']), answers: [pick(r, profile.answers), pick(r, ['soon', 'this month'])] })
        : undefined,
    ip: r() < 0.7 ? `203.0.113.${1 + Math.floor(r() * 250)}` : undefined,
    externalIdCrmA: r() < 0.5 ? `CRM-A-${100000 + lead.i}` : undefined,
    priority: weighted(r, [
      [0, 8],
      [1, 1],
      [5, 1],
    ]),
    source,
    adCampaignId: source !== 'organic' && source !== 'non-organic' ? `cmp-2026-${String(1 + Math.floor(r() * 40)).padStart(3, '0')}` : undefined,
    messengerUserName: r() < 0.2 ? `user${digits(r, 5)}` : undefined,
    socialAId: r() < 0.15 ? String(1 + Math.floor(r() * 900_000_000)) : undefined,
    timeZone: lead.timeZone,
  };
  return { input, city, customValues };
}

/** One INSERT of every lead, its columns those the rows give (LEAD_COLUMNS); the new ids in the leads' order. */
async function insert(m: EntityManager, leads: SeedLead[]): Promise<number[]> {
  const rows = leads.map(({ lead, createdAt, qualifiedAt, selectionType, city }) =>
    LEAD_COLUMNS.row({ ...lead, qualifiedAt, selectionType, city, createdAt, updatedAt: qualifiedAt ?? createdAt }),
  );
  const columns = LEAD_COLUMNS.givenColumns(rows).join(', ');
  const inserted: { id: number }[] = await m.query(
    `INSERT INTO lead (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::lead, $1) WITH ORDINALITY ORDER BY ordinality RETURNING id`,
    [JSON.stringify(rows)],
  );
  // Ids are drawn in insert order.
  return inserted.map((r) => r.id).sort((a, b) => a - b);
}

/** Same-phone leads of an order, in creation order, form one chain (the window is longer than the spread). */
async function link(m: EntityManager, leads: SeedLead[], ids: number[]): Promise<void> {
  const last = new Map<string, number>();
  const links: [number, number][] = [];
  leads.forEach(({ lead }, i) => {
    const key = `${lead.orderId}:${lead.phone}`;
    const prev = last.get(key);
    if (prev !== undefined) links.push([ids[prev], ids[i]]);
    last.set(key, i);
  });
  if (links.length === 0) return;
  const prevIds = links.map(([p]) => p);
  const nextIds = links.map(([, n]) => n);
  await m.query(`UPDATE lead l SET next_lead_id = x.next FROM unnest($1::int[], $2::int[]) AS x(prev, next) WHERE l.id = x.prev`, [prevIds, nextIds]);
  await m.query(`UPDATE lead l SET previous_lead_id = x.prev, is_secondary = true FROM unnest($1::int[], $2::int[]) AS x(prev, next) WHERE l.id = x.next`, [
    prevIds,
    nextIds,
  ]);
}
