import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { daysAgoAt } from '../users/users.seed';
import type { DemoClientName } from '../clients/clients.seed';
import { OrdersService, CreateOrder } from './orders.service';

/** References by natural key: users by e-mail, groups by English name, numbers by number, custom fields by title, clients by name. */
interface DemoOrder extends Omit<CreateOrder, 'sipEndpointIds' | 'agentUserIds' | 'agentGroupIds' | 'customValues' | 'callScenarioId' | 'clientId'> {
  /** The client that ordered it; absent: the call center's own. */
  client?: DemoClientName;
  agents: string[];
  groups: string[];
  sipNumbers: string[];
  values: Record<string, string | number | boolean>;
  /** Timeline, in days before the seed runs: opened after the users joined and before its first lead (leads span 21 days). */
  openedDaysAgo: number;
  /** Custom value "Дата запуска" (launch date): on or after the day it was opened. */
  launchedDaysAgo: number;
  /** Custom value "Последняя сверка" (last reconciliation), when the order has one. */
  reconciledDaysAgo?: number;
  /** What this order's demo leads carry (leads.seed.ts): "Интерес" codes, quiz answers, whether a budget. */
  leadProfile: { interests: string[]; answers: string[]; budget: boolean };
}

const WEEKDAYS_9_21: [string, string][] = Array.from({ length: 5 }, () => ['09:00', '21:00']);
const RU_HOLIDAYS_2027 = ['01.01.2027', '02.01.2027', '07.01.2027', '23.02.2027', '08.03.2027', '01.05.2027', '09.05.2027', '12.06.2027', '04.11.2027'];

export const DEMO_ORDERS: DemoOrder[] = [
  {
    serviceTitle: 'ГК «Северный квартал»: квалификация лидов на новостройки',
    title: 'Новостройки Москвы',
    status: 'success',
    callSchedule: [...WEEKDAYS_9_21, ['10:00', '18:00'], []],
    callHolidayOverrides: RU_HOLIDAYS_2027,
    autoDialingEnabled: true,
    dialWeight: 3,
    aiDefaultLanguage: 'ru',
    amdDetectionEnabled: true,
    sipEndpointUsageScheme: 'random_without_repetition',
    qualifiedLeadsPerDayLimit: 60,
    leadTransformEnabled: true,
    speechRecognitionEnabled: true,
    agentLeadCreationIsAllowed: true,
    defaultUtcOffset: 3,
    transferNumbers: [
      { number: '+74951234500', names: { ru: 'Отдел продаж застройщика', gb: 'Developer sales office' } },
      { number: '+74951234501', names: { ru: 'Ипотечный брокер' } },
    ],
    agents: ['anna.smirnova@callcenter.example', 'sergey.kuznetsov@callcenter.example', 'viktor.andreev@callcenter.example'],
    groups: ['Sales'],
    sipNumbers: ['+74951234567'],
    values: {
      'Менеджер клиента': 'Ирина Белова',
      'План лидов в месяц': 1200,
      'Ставка за лид': 850.5,
      'Нужен ежедневный отчёт': true,
      Ниша: 'real_estate',
      'Рабочие языки': 'ru',
    },
    leadProfile: { interests: ['flat'], answers: ['studio', '1-2 rooms', '3 rooms', 'mortgage', 'this month'], budget: true },
    openedDaysAgo: 95,
    launchedDaysAgo: 92,
    reconciledDaysAgo: 3,
  },
  {
    code: 'znanie-online-school',
    client: 'Online school',
    serviceTitle: 'Онлайн-школа «Знание»: продажа курсов по заявкам с лендингов',
    title: 'Онлайн-школа «Знание»',
    status: 'success',
    callSchedule: [
      ['10:00', '21:00'],
      ['10:00', '21:00'],
      ['10:00', '21:00'],
      ['10:00', '21:00'],
      ['10:00', '21:00'],
      ['11:00', '17:00'],
      ['11:00', '17:00'],
    ],
    callHolidayOverrides: ['01.01.2027', '02.01.2027', '08.03.2027'],
    autoDialingEnabled: true,
    dialWeight: 2,
    predictiveModeEnabled: true,
    aiDefaultLanguage: 'ru',
    callRecordRule: 'agent_is_connected',
    sipEndpointUsageScheme: 'even_loaded',
    agentLeadEditMode: 'always',
    autoProcessCall: true,
    defaultUtcOffset: 3,
    transferNumbers: [{ number: '+78123456700', names: { ru: 'Методист', gb: 'Course advisor' } }],
    agents: ['maria.sokolova@callcenter.example', 'ekaterina.volkova@callcenter.example'],
    groups: ['Sales'],
    sipNumbers: ['+78123456789', '+74951234567'],
    values: {
      'Менеджер клиента': 'Олег Смирнов',
      'План лидов в месяц': 3000,
      'Ставка за лид': 320,
      'Нужен ежедневный отчёт': false,
      Ниша: 'education',
      'Рабочие языки': 'ru',
    },
    leadProfile: { interests: ['course', 'consultation'], answers: ['python', 'english', 'design', 'evening', 'weekends'], budget: false },
    openedDaysAgo: 120,
    launchedDaysAgo: 115,
  },
  {
    client: 'Dental clinic',
    serviceTitle: 'Стоматология «Улыбка» (СПб): запись пациентов на приём',
    title: 'Стоматология «Улыбка»',
    status: 'info',
    callSchedule: [['08:00', '20:00'], ['08:00', '20:00'], ['08:00', '20:00'], ['08:00', '20:00'], ['08:00', '20:00'], ['09:00', '15:00'], []],
    callHolidayOverrides: RU_HOLIDAYS_2027,
    autoDialingEnabled: true,
    dialWeight: 1,
    amdDetectionEnabled: true,
    showLeadContactsToAgent: true,
    ignoreLeadTimezone: true,
    agentLeadEditMode: 'during-call',
    defaultUtcOffset: 3,
    transferNumbers: [{ number: '+78123456701', names: { ru: 'Регистратура клиники', gb: 'Clinic reception' } }, { number: '701' }],
    agents: ['dmitry.petrov@callcenter.example', 'natalia.lebedeva@callcenter.example'],
    groups: ['Support'],
    sipNumbers: ['+78123456789'],
    values: {
      'Менеджер клиента': 'Светлана Ким',
      'План лидов в месяц': 400,
      'Ставка за лид': 500,
      Ниша: 'medicine',
    },
    leadProfile: { interests: ['consultation'], answers: ['check-up', 'implants', 'cleaning', 'morning', 'evening'], budget: false },
    openedDaysAgo: 60,
    launchedDaysAgo: 55,
  },
  {
    code: 'london-support-line',
    serviceTitle: 'Brightside Energy: English-language customer support line',
    title: 'London Support Line',
    status: 'success',
    callSchedule: [['08:00', '20:00'], ['08:00', '20:00'], ['08:00', '20:00'], ['08:00', '20:00'], ['08:00', '20:00'], ['09:00', '13:00'], []],
    callHolidayOverrides: ['25.12.2026', '26.12.2026', '01.01.2027', '26.03.2027', '29.03.2027', '03.05.2027'],
    autoDialingEnabled: true,
    dialWeight: 1,
    aiDefaultLanguage: 'gb',
    speechRecognitionEnabled: true,
    sipEndpointUsageScheme: 'even_loaded_daily',
    agentLeadEditMode: 'never',
    defaultUtcOffset: 0,
    // Its day and its leads without a zone of their own follow London's real rules (GMT/BST).
    defaultTimeZone: 'Europe/London',
    transferNumbers: [
      { number: '+442071234500', names: { gb: 'Escalation desk', ru: 'Старший смены' } },
      { number: '+442071234501', names: { gb: 'Billing' } },
    ],
    agents: ['emily.johnson@callcenter.example', 'james.wilson@callcenter.example', 'oliver.brown@callcenter.example', 'charlotte.davies@callcenter.example'],
    groups: ['English line'],
    sipNumbers: ['+442071234567'],
    values: {
      'Менеджер клиента': 'Sarah Collins',
      'Ставка за лид': 4.75,
      'Нужен ежедневный отчёт': true,
      Ниша: 'support',
      'Рабочие языки': 'en,ru',
    },
    leadProfile: { interests: [], answers: ['billing', 'meter reading', 'tariff', 'callback'], budget: false },
    openedDaysAgo: 170,
    launchedDaysAgo: 165,
    reconciledDaysAgo: 4,
  },
  {
    serviceTitle: 'ГК «Северный квартал»: реактивация старой базы (загородные дома)',
    title: 'Загородные дома: реактивация базы',
    status: 'secondary',
    callSchedule: [
      ['11:00', '19:00'],
      ['11:00', '19:00'],
      ['11:00', '19:00'],
      ['11:00', '19:00'],
      ['11:00', '19:00'],
    ],
    autoDialingEnabled: false,
    dialWeight: 1,
    qualifiedLeadsPerDayLimit: 15,
    defaultUtcOffset: 3,
    agents: [],
    groups: ['Sales'],
    sipNumbers: ['+74951234567', '+78123456789'],
    values: { Ниша: 'real_estate' },
    leadProfile: { interests: ['house'], answers: ['house with a plot', 'townhouse', 'next spring', 'mortgage'], budget: true },
    openedDaysAgo: 30,
    launchedDaysAgo: 25,
  },
];

/** The demo order that dials only leads with recorded consent (its own step: the demo leads spread over DEMO_ORDERS only). */
export const CONSENT_DEMO_ORDER: DemoOrder = {
  code: 'polis-renewal-consent',
  serviceTitle: 'Страховая «Надёжный дом»: продление полисов, звонки только с согласия клиента',
  title: 'Продление полисов (по согласию)',
  status: 'success',
  callSchedule: Array.from({ length: 5 }, () => ['10:00', '19:00']),
  callHolidayOverrides: RU_HOLIDAYS_2027,
  autoDialingEnabled: true,
  dialWeight: 1,
  consentRequired: true,
  maxAttemptsPerDay: 3,
  // Voicemail (call status 5): again after 4 hours rather than the next day, and at most twice.
  redialRules: [{ statusId: 5, afterMinutes: 240, maxAttempts: 2, final: false }],
  defaultUtcOffset: 3,
  agents: ['anna.smirnova@callcenter.example'],
  groups: ['Sales'],
  sipNumbers: ['+74951234567'],
  values: { 'Менеджер клиента': 'Ирина Белова', 'Рабочие языки': 'ru' },
  leadProfile: { interests: [], answers: ['renewal', 'callback'], budget: false },
  openedDaysAgo: 14,
  launchedDaysAgo: 12,
};

/**
 * Demo orders (seed order 30; the consent order 31), created through OrdersService with the API's rules. References earlier seeds' data
 * (clients included) by natural key; missing references are left out, and an order with none of its numbers is skipped.
 */
@Injectable()
export class OrdersDemoSeed {
  private readonly logger = new Logger('OrdersDemoSeed');

  constructor(seeder: DemoSeeder, orders: OrdersService) {
    seeder.add({ name: 'orders', order: 30, run: (m) => this.run(m, orders, DEMO_ORDERS) });
    seeder.add({ name: 'orders:consent-required', order: 31, run: (m) => this.run(m, orders, [CONSENT_DEMO_ORDER]) });
  }

  private async run(m: EntityManager, orders: OrdersService, list: DemoOrder[]): Promise<void> {
    const idsBy = async (sql: string, keys: string[]): Promise<Map<string, number>> => {
      const rows: { key: string; id: number }[] = await m.query(sql, [keys]);
      return new Map(rows.map((r) => [r.key, r.id]));
    };
    const all = <K extends 'agents' | 'groups' | 'sipNumbers'>(k: K) => [...new Set(list.flatMap((o) => o[k]))];
    const users = await idsBy(`SELECT lower(email) AS key, id FROM app_user WHERE lower(email) = ANY($1)`, all('agents'));
    const groups = await idsBy(`SELECT names->>'gb' AS key, min(id) AS id FROM agent_group WHERE names->>'gb' = ANY($1) GROUP BY 1`, all('groups'));
    const sips = await idsBy(`SELECT number AS key, id FROM sip_endpoint WHERE number = ANY($1)`, all('sipNumbers'));
    const fields = await idsBy(`SELECT title AS key, min(id) AS id FROM custom_field WHERE essence = 'orders' AND title = ANY($1) GROUP BY 1`, [
      ...new Set(list.flatMap((o) => Object.keys(o.values))),
      'Дата запуска',
      'Последняя сверка',
    ]);
    const clients = await idsBy(`SELECT name AS key, id FROM client WHERE name = ANY($1)`, [...new Set(list.flatMap((o) => o.client ?? []))]);
    const [scenario]: { id: number }[] = await m.query(`SELECT id FROM call_scenario ORDER BY id LIMIT 1`);
    const pick = (keys: string[], map: Map<string, number>) => keys.flatMap((k) => (map.has(k) ? [map.get(k)!] : []));

    const now = new Date();
    for (const {
      agents,
      groups: groupNames,
      sipNumbers,
      values: fixed,
      openedDaysAgo,
      launchedDaysAgo,
      reconciledDaysAgo,
      leadProfile: _leads,
      client,
      ...order
    } of list) {
      const sipEndpointIds = pick(sipNumbers, sips);
      if (sipEndpointIds.length === 0) {
        this.logger.warn(`demo order "${order.title}" skipped: none of its numbers (${sipNumbers.join(', ')}) exist`);
        continue;
      }
      const values: Record<string, string | number | boolean> = { ...fixed, 'Дата запуска': daysAgoAt(now, launchedDaysAgo).toISOString().slice(0, 10) };
      if (reconciledDaysAgo !== undefined) values['Последняя сверка'] = daysAgoAt(now, reconciledDaysAgo, '15:00:00').toISOString().replace('.000Z', 'Z');
      const customValues = Object.fromEntries(Object.entries(values).flatMap(([title, v]) => (fields.has(title) ? [[String(fields.get(title)), v]] : [])));
      const id = await orders.createWith(m, {
        ...order,
        sipEndpointIds,
        agentUserIds: pick(agents, users),
        agentGroupIds: pick(groupNames, groups),
        ...(scenario ? { callScenarioId: scenario.id } : {}),
        ...(client && clients.has(client) ? { clientId: clients.get(client) } : {}),
        customValues,
      });
      const opened = daysAgoAt(now, openedDaysAgo, '10:00:00');
      await m.query(`UPDATE call_order SET created_at = $2, updated_at = $2 WHERE id = $1`, [id, opened]);
    }
  }
}
