import request from 'supertest';
import type { TestApp } from '../support/test-app';
import type { OrderRefs } from './orders';

/** Ids of the custom fields the order specs fill, by a short name. */
export type OrderCustomFields = Record<'manager' | 'plan' | 'launch' | 'niche' | 'langs' | 'leadCity', number>;

/** Order custom fields of the types the specs exercise (string, int, date, select, multiselect) and one lead field. */
export async function createOrderCustomFields(t: TestApp): Promise<OrderCustomFields> {
  const cf: Partial<OrderCustomFields> = {};
  const field = async (key: keyof OrderCustomFields, body: object) => {
    cf[key] = (await request(t.http).post('/v2/custom-field/create/').set('X-Api-Key', t.apiKey).send(body).expect(200)).body.data.id;
  };
  await field('manager', { title: 'Менеджер клиента', type: 'string', essence: 'orders' });
  await field('plan', { title: 'План лидов', type: 'int', essence: 'orders' });
  await field('launch', { title: 'Дата запуска', type: 'date', essence: 'orders' });
  await field('niche', {
    title: 'Ниша',
    type: 'select',
    essence: 'orders',
    params: [
      { code: 'real_estate', title: 'Недвижимость' },
      { code: 'medicine', title: 'Медицина' },
    ],
  });
  await field('langs', {
    title: 'Языки',
    type: 'multiselect',
    essence: 'orders',
    params: [
      { code: 'ru', title: 'Русский' },
      { code: 'en', title: 'English' },
    ],
  });
  await field('leadCity', { title: 'Город', type: 'string', essence: 'leads' });
  return cf as OrderCustomFields;
}

/** A create body with every field set, in the loose input forms the API accepts (duplicates, unsorted ids, mixed date formats). */
export function fullOrderBody(refs: OrderRefs, cf: OrderCustomFields) {
  return {
    code: 'novostroyki-msk',
    serviceTitle: 'ГК «Северный квартал»: квалификация лидов',
    title: 'Новостройки Москвы',
    status: 'success',
    callSchedule: [
      ['09:00', '21:00'],
      ['09:00', '21:00'],
      ['09:00', '21:00'],
      ['09:00', '21:00'],
      ['09:00', '21:00'],
      ['10:00', '18:00'],
    ],
    callHolidayOverrides: ['08.03.2027', '2027-01-01', '1 January 2027', '2027-01-07T10:00:00+03:00'],
    autoDialingEnabled: true,
    predictiveModeEnabled: true,
    aiDefaultLanguage: 'ru',
    amdDetectionEnabled: true,
    callRecordRule: 'agent_is_connected',
    sipEndpointUsageScheme: 'even_loaded_daily',
    agentUserIds: [refs.users[2], refs.users[0], refs.users[2]],
    agentGroupIds: [refs.groups[1], refs.groups[0]],
    showLeadContactsToAgent: false,
    callAttemptGroupId: refs.otherAttemptGroup,
    qualifiedLeadsPerDayLimit: 60,
    dialWeight: 4,
    callScenarioId: refs.scenario,
    leadTransformEnabled: true,
    speechRecognitionEnabled: true,
    ignoreLeadTimezone: true,
    sipEndpointIds: [refs.sips[1], refs.sips[0], refs.sips[1]],
    customValues: { [cf.manager]: 'Ирина Белова', [cf.plan]: '1200', [cf.launch]: '01.11.2026', [cf.niche]: 'real_estate', [cf.langs]: 'ru, en' },
    agentLeadCreationIsAllowed: true,
    agentLeadEditMode: 'always',
    autoProcessCall: true,
    transferNumbers: [{ number: '+74951234500', names: { ru: 'Отдел продаж', en: 'Sales' } }, { number: '701' }, { number: '+74951234501', names: [] }],
    defaultUtcOffset: 3,
  };
}

/** A copy of `o` without `keys`. */
export function omit(o: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const copy = { ...o };
  for (const k of keys) delete copy[k];
  return copy;
}
