import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { seededRandom } from '../../database/seed/random';
import { DEMO_ORDERS } from '../orders/orders.seed';
import { OrdersService } from '../orders/orders.service';
import { slugifyOrderCode } from '../orders/domain/order-code';
import { CreateLeadInput, LEAD_SOURCES, LeadSource } from './domain/lead';
import { LeadStatus } from './domain/lead-status';
import { buildNewLead, NewLead, OrderSettings } from './domain/new-lead';
import { normalisePhone } from './domain/phone';
import { StatusCataloguesService } from './status-catalogues.service';

const LEADS = 320;
const SPREAD_DAYS = 21;
const SECONDARY_SHARE = 0.12;
/** Leads of an order the demo does not describe: no interest, no budget. */
const NO_PROFILE = { interests: [] as string[], answers: ['callback'], budget: false };

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)];
const digits = (r: Rand, n: number) => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');
function weighted<T>(r: Rand, items: readonly [T, number][]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = r() * total;
  for (const [item, w] of items) {
    x -= w;
    if (x < 0) return item;
  }
  return items[items.length - 1][0];
}

/** Number layouts of mobile ranges per country; each candidate is checked by the real validator. */
const PHONE_LAYOUTS: Record<string, (r: Rand) => string> = {
  RU: (r) => `+79${pick(r, ['03', '05', '09', '15', '16', '17', '26', '85', '99'])}${digits(r, 7)}`,
  KZ: (r) => `+77${pick(r, ['01', '05', '07', '47', '71', '77'])}${digits(r, 7)}`,
  BY: (r) => `+375${pick(r, ['29', '33', '44'])}${digits(r, 7)}`,
  UA: (r) => `+380${pick(r, ['50', '67', '93'])}${digits(r, 7)}`,
  DE: (r) => `+49${pick(r, ['151', '160', '170', '176'])}${digits(r, 8)}`,
  GB: (r) => `+447${pick(r, ['400', '700', '800', '911'])}${digits(r, 6)}`,
  US: (r) => `+1${pick(r, ['212', '415', '305', '617'])}${pick(r, ['2', '5', '7'])}${digits(r, 6)}`,
  UZ: (r) => `+998${pick(r, ['90', '91', '93'])}${digits(r, 7)}`,
};

function phoneOf(r: Rand, country: string): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const candidate = PHONE_LAYOUTS[country](r);
    const parsed = normalisePhone(candidate);
    if (parsed.ok) return parsed.e164;
  }
  throw new Error(`no valid demo phone for ${country}`);
}

/** Mobile layouts of the time-zone demo leads' countries (issue 14). */
const ZONE_PHONE_LAYOUTS: Record<string, (r: Rand) => string> = {
  IN: (r) => `+91${pick(r, ['98', '99', '97'])}${digits(r, 8)}`,
  NP: (r) => `+97798${digits(r, 8)}`,
  CA: (r) => `+1709${pick(r, ['2', '5', '7'])}${digits(r, 6)}`,
  US: (r) => `+1${pick(r, ['212', '917'])}${pick(r, ['2', '5', '7'])}${digits(r, 6)}`,
  AU: (r) => `+614${pick(r, ['00', '12', '38'])}${digits(r, 6)}`,
  NZ: (r) => `+6421${digits(r, 7)}`,
};
/**
 * Every tenth demo lead lives in a fractional or DST zone: India (+5:30) and Nepal (+5:45) from
 * their phone's single zone; Newfoundland (-3:30/-2:30), New York, Lord Howe (+10:30/+11, a
 * half-hour DST) and the Chatham Islands (+12:45/+13:45) sent as timeZone (their countries have several zones).
 */
const ZONED_DEMO_LEADS: { country: string; timeZone?: string }[] = [
  { country: 'IN' },
  { country: 'NP' },
  { country: 'CA', timeZone: 'America/St_Johns' },
  { country: 'US', timeZone: 'America/New_York' },
  { country: 'AU', timeZone: 'Australia/Lord_Howe' },
  { country: 'NZ', timeZone: 'Pacific/Chatham' },
];

function zonePhoneOf(r: Rand, country: string): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const parsed = normalisePhone(ZONE_PHONE_LAYOUTS[country](r));
    if (parsed.ok) return parsed.e164;
  }
  throw new Error(`no valid demo phone for ${country}`);
}

const RU_NAMES = [
  'Анна Петрова',
  'Иван Соколов',
  'Мария Кузнецова',
  'Дмитрий Орлов',
  'Елена Волкова',
  'Алексей Морозов',
  'Ольга Лебедева',
  'Сергей Новиков',
  'Татьяна Павлова',
  'Николай Фёдоров',
  'Наталья Егорова',
  'Павел Козлов',
];
const EN_NAMES = [
  'Emily Clarke',
  'James Wilson',
  'Olivia Brown',
  'Thomas Hughes',
  'Sophie Turner',
  'Daniel Evans',
  'Grace Miller',
  'Lukas Becker',
  'Hannah Schmidt',
];
const CITIES_RU = ['Москва', 'Санкт-Петербург', 'Казань', 'Екатеринбург', 'Новосибирск', 'Алматы', 'Минск'];
const CITIES_EN = ['London', 'Manchester', 'Berlin', 'New York', 'Boston'];
const STATUS_WEIGHTS: [number, number][] = [
  [1, 45],
  [2, 10],
  [3, 8],
  [4, 10],
  [10, 7],
  [11, 5],
  [20, 5],
  [21, 4],
  [22, 3],
  [30, 3],
];
const SOURCE_WEIGHTS: [LeadSource, number][] = LEAD_SOURCES.map((s) => [s, s === 'organic' ? 30 : s === 'non-organic' ? 8 : 6]);

interface SeedLead {
  lead: NewLead;
  createdAt: Date;
  qualifiedAt: Date | null;
  selectionType: string | null;
  city: string | null;
}

/**
 * Demo leads (seed order 40): a few hundred across the demo orders (found by code or title),
 * phones of several countries, some secondary (same phone again), every status category and
 * source. Built through the domain rules (phone, utcOffset, planning), inserted with one
 * multi-row INSERT, then linked with one UPDATE.
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
  }

  private async run(m: EntityManager): Promise<void> {
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
    if (orders.length === 0) {
      this.logger.warn('no demo orders: demo leads skipped');
      return;
    }
    const english = new Set(rows.filter((o) => /^[\x20-\x7e]+$/.test(o.title)).map((o) => o.id));
    // Each lead fits its order: a dental clinic's lead is not interested in a flat.
    const profileOf = new Map(rows.map((o) => [o.id, DEMO_ORDERS.find((d) => d.title === o.title)?.leadProfile ?? NO_PROFILE]));
    const openedAt: { id: number; created_at: Date }[] = await m.query(`SELECT id, created_at FROM call_order WHERE id = ANY($1)`, [rows.map((o) => o.id)]);
    const openedOf = new Map(openedAt.map((o) => [o.id, o.created_at.getTime()]));
    const fields: { id: number; title: string }[] = await m.query(`SELECT id, title FROM custom_field WHERE essence = 'leads'`);
    const field = (title: string) => fields.find((f) => f.title === title)?.id;
    const catalogue: LeadStatus[] = await this.statuses.leadStatuses(m);
    const now = new Date();
    const r = seededRandom(20261122);
    // Its own stream: the zoned leads leave every other demo value as it was.
    const rz = seededRandom(14);

    const leads: SeedLead[] = [];
    const phonesByOrder = new Map<number, string[]>();
    for (let i = 0; i < LEADS; i++) {
      const order = orders[i % orders.length];
      const en = english.has(order.id);
      const profile = profileOf.get(order.id) ?? NO_PROFILE;
      const known = phonesByOrder.get(order.id) ?? [];
      const country = en
        ? weighted(r, [
            ['GB', 6],
            ['US', 3],
            ['DE', 2],
          ])
        : weighted(r, [
            ['RU', 12],
            ['KZ', 2],
            ['BY', 2],
            ['UA', 1],
            ['UZ', 1],
          ]);
      const usual = known.length > 0 && r() < SECONDARY_SHARE ? pick(r, known) : phoneOf(r, country);
      const zoned = i % 10 === 3 ? ZONED_DEMO_LEADS[Math.floor(i / 10) % ZONED_DEMO_LEADS.length] : null;
      const phone = zoned ? zonePhoneOf(rz, zoned.country) : usual;
      phonesByOrder.set(order.id, [...known, phone]);
      const source = weighted(r, SOURCE_WEIGHTS);
      const leadType = r() < 0.85 ? 'straight' : 'selection';
      const city = pick(r, en ? CITIES_EN : CITIES_RU);
      const values: Record<string, unknown> = {};
      if (field('Город') && r() < 0.6) values[field('Город')!] = city;
      if (field('Интерес') && profile.interests.length > 0 && r() < 0.4) values[field('Интерес')!] = pick(r, profile.interests);
      if (field('Бюджет') && profile.budget && r() < 0.3) values[field('Бюджет')!] = 1_000_000 + Math.floor(r() * 90) * 100_000;
      const input: CreateLeadInput = {
        leadType,
        phone: phone.slice(1),
        orderId: order.id,
        orderCode: order.code,
        name: pick(r, en ? EN_NAMES : RU_NAMES),
        sourceComment:
          r() < 0.5
            ? JSON.stringify({ form: pick(r, ['quiz', 'callback', 'landing']), answers: [pick(r, profile.answers), pick(r, ['soon', 'this month'])] })
            : undefined,
        ip: r() < 0.7 ? `203.0.113.${1 + Math.floor(r() * 250)}` : undefined,
        externalIdCrmA: r() < 0.5 ? `CRM-A-${100000 + i}` : undefined,
        priority: weighted(r, [
          [0, 8],
          [1, 1],
          [5, 1],
        ]),
        source,
        adCampaignId: source !== 'organic' && source !== 'non-organic' ? `cmp-2026-${String(1 + Math.floor(r() * 40)).padStart(3, '0')}` : undefined,
        messengerUserName: r() < 0.2 ? `user${digits(r, 5)}` : undefined,
        socialAId: r() < 0.15 ? String(1 + Math.floor(r() * 900_000_000)) : undefined,
        timeZone: zoned?.timeZone,
      };
      const built = buildNewLead(input, { order, statuses: catalogue, customValues: values, now });
      if (!built.ok) throw new Error(`demo lead ${i}: ${JSON.stringify(built.errors)}`);
      const statusId = weighted(r, STATUS_WEIGHTS);
      const category = catalogue.find((s) => s.id === statusId)?.category ?? 'in-progress';
      // Within the last SPREAD_DAYS, and never before its order was opened.
      const opened = openedOf.get(order.id) ?? now.getTime() - SPREAD_DAYS * 86_400_000;
      const createdAt = new Date(Math.max(opened + 60_000, now.getTime() - Math.floor(r() * SPREAD_DAYS * 86_400_000)));
      leads.push({
        lead: {
          ...built.lead,
          statusId,
          createMethod: weighted(r, [
            ['API', 7],
            ['form', 2],
            ['manual', 1],
          ]),
          planningCallAt: category === 'in-progress' ? built.lead.planningCallAt : null,
        },
        createdAt,
        qualifiedAt: category === 'qualified' ? new Date(Math.min(now.getTime(), createdAt.getTime() + (1 + Math.floor(r() * 48)) * 3_600_000)) : null,
        selectionType: leadType === 'selection' ? pick(r, ['auto', 'manual']) : null,
        city: r() < 0.5 ? city : null,
      });
    }
    // The README tour and the OpenAPI example look this one up (GET /v2/lead/?externalIdCrmA=CRM-A-100000).
    leads[0].lead.externalIdCrmA ??= 'CRM-A-100000';
    leads.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const ids = await this.insert(m, leads);
    await this.link(m, leads, ids);
    this.logger.log(`${ids.length} demo leads in ${orders.length} orders`);
  }

  private async insert(m: EntityManager, leads: SeedLead[]): Promise<number[]> {
    const columns = [
      'order_id',
      'phone',
      'lead_type',
      'status_id',
      'name',
      'source_comment',
      'ip',
      'external_id_crm_a',
      'create_method',
      'source',
      'planning_call_at',
      'priority',
      'utc_offset',
      'time_zone',
      'social_a_id',
      'messenger_user_name',
      'ad_campaign_id',
      'custom_values',
      'qualified_at',
      'selection_type',
      'city',
      'created_at',
      'updated_at',
    ];
    const params: unknown[] = [];
    const tuples = leads.map(({ lead: l, createdAt, qualifiedAt, selectionType, city }) => {
      const values = [
        l.orderId,
        l.phone,
        l.leadType,
        l.statusId,
        l.name,
        l.sourceComment,
        l.ip,
        l.externalIdCrmA,
        l.createMethod,
        l.source,
        l.planningCallAt,
        l.priority,
        l.utcOffset,
        l.timeZone ?? null,
        l.socialAId,
        l.messengerUserName,
        l.adCampaignId,
        JSON.stringify(l.customValues),
        qualifiedAt,
        selectionType,
        city,
        createdAt,
        qualifiedAt ?? createdAt,
      ];
      const start = params.length;
      params.push(...values);
      return `(${values.map((_, i) => `$${start + i + 1}`).join(', ')})`;
    });
    const rows: { id: number }[] = await m.query(`INSERT INTO lead (${columns.join(', ')}) VALUES ${tuples.join(', ')} RETURNING id`, params);
    return rows.map((r) => r.id);
  }

  /** Same-phone leads of an order, in creation order, form one chain (the window is longer than the spread). */
  private async link(m: EntityManager, leads: SeedLead[], ids: number[]): Promise<void> {
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
}
