import { LEAD_SOURCES, LeadSource } from './domain/lead';
import { normalisePhone } from './domain/phone';

/** The demo leads' data (leads.seed.ts): phone layouts, names, cities, and the weights drawn from. */

export type Rand = () => number;
export const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)];
export const digits = (r: Rand, n: number) => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');
export function weighted<T>(r: Rand, items: readonly [T, number][]): T {
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

export function phoneOf(r: Rand, country: string): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const candidate = PHONE_LAYOUTS[country](r);
    const parsed = normalisePhone(candidate);
    if (parsed.ok) return parsed.e164;
  }
  throw new Error(`no valid demo phone for ${country}`);
}

/** Mobile layouts of the time-zone demo leads' countries. */
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
export const ZONED_DEMO_LEADS: { country: string; timeZone?: string }[] = [
  { country: 'IN' },
  { country: 'NP' },
  { country: 'CA', timeZone: 'America/St_Johns' },
  { country: 'US', timeZone: 'America/New_York' },
  { country: 'AU', timeZone: 'Australia/Lord_Howe' },
  { country: 'NZ', timeZone: 'Pacific/Chatham' },
];

export function zonePhoneOf(r: Rand, country: string): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const parsed = normalisePhone(ZONE_PHONE_LAYOUTS[country](r));
    if (parsed.ok) return parsed.e164;
  }
  throw new Error(`no valid demo phone for ${country}`);
}

export const RU_NAMES = [
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
export const EN_NAMES = [
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
export const CITIES_RU = ['Москва', 'Санкт-Петербург', 'Казань', 'Екатеринбург', 'Новосибирск', 'Алматы', 'Минск'];
export const CITIES_EN = ['London', 'Manchester', 'Berlin', 'New York', 'Boston'];
export const STATUS_WEIGHTS: [number, number][] = [
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
/** Phone countries of a lead of an order with an English title, and of the others. */
export const COUNTRY_WEIGHTS: Record<'en' | 'ru', [string, number][]> = {
  en: [
    ['GB', 6],
    ['US', 3],
    ['DE', 2],
  ],
  ru: [
    ['RU', 12],
    ['KZ', 2],
    ['BY', 2],
    ['UA', 1],
    ['UZ', 1],
  ],
};
export const SOURCE_WEIGHTS: [LeadSource, number][] = LEAD_SOURCES.map((s) => [s, s === 'organic' ? 30 : s === 'non-organic' ? 8 : 6]);
