import { EntityManager } from 'typeorm';
import { DemoSeedStep } from '../../database/seed/demo-seeder';
import type { AccessGroupValue, PhoneMode } from './domain/user';
import { UserEntity } from './persistence/user.entity';

type DemoUser = {
  name: string | null;
  lastName: string | null;
  email: string;
  accessGroup: AccessGroupValue;
  isActive?: boolean;
  lang?: 'ru' | 'gb';
  skills?: ('ru' | 'gb')[];
  webRtc?: boolean;
  autoAnswer?: number;
  phoneMode?: PhoneMode;
  telegram?: { chatId: string | null; enabled: boolean; urgentOnly?: boolean };
  email_?: { enabled: boolean; urgentOnly?: boolean };
  /** Last login and last activity: that many days before the seed runs, at these UTC times of day. */
  seen?: [daysAgo: number, login: string, activity: string];
};

/** The demo's timeline, relative to when it is seeded: users join first, then orders open, then leads arrive. */
export const DEMO_USERS_JOINED_DAYS_AGO = 200;

/** `hh:mm:ss` UTC, `daysAgo` days before `now`. */
export function daysAgoAt(now: Date, daysAgo: number, time = '00:00:00'): Date {
  const day = new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  return new Date(`${day}T${time}Z`);
}

/** Every access group, several agents with language skills, some inactive, varied notification settings. */
export const DEMO_USERS: DemoUser[] = [
  {
    name: 'Ольга',
    lastName: 'Иванова',
    email: 'olga.ivanova@callcenter.example',
    accessGroup: 'admin',
    skills: ['ru', 'gb'],
    webRtc: true,
    email_: { enabled: true },
    telegram: { chatId: '401100201', enabled: true, urgentOnly: true },
    seen: [1, '08:55:12', '17:42:03'],
  },
  {
    name: 'Дмитрий',
    lastName: 'Петров',
    email: 'dmitry.petrov@callcenter.example',
    accessGroup: 'call-center-senior',
    skills: ['ru', 'gb'],
    webRtc: true,
    telegram: { chatId: '401100202', enabled: true },
    seen: [1, '08:59:40', '18:01:27'],
  },
  {
    name: 'Анна',
    lastName: 'Смирнова',
    email: 'anna.smirnova@callcenter.example',
    accessGroup: 'call-center',
    skills: ['ru'],
    webRtc: true,
    autoAnswer: 2,
    telegram: { chatId: '401100203', enabled: true, urgentOnly: true },
    seen: [1, '09:02:11', '17:30:45'],
  },
  {
    name: 'Сергей',
    lastName: 'Кузнецов',
    email: 'sergey.kuznetsov@callcenter.example',
    accessGroup: 'call-center',
    skills: ['ru'],
    webRtc: true,
    email_: { enabled: true, urgentOnly: true },
    seen: [2, '09:00:03', '18:10:00'],
  },
  {
    name: 'Мария',
    lastName: 'Соколова',
    email: 'maria.sokolova@callcenter.example',
    accessGroup: 'call-center',
    skills: ['ru', 'gb'],
    webRtc: true,
    phoneMode: 'predictive',
    email_: { enabled: true },
    seen: [1, '10:14:55', '16:05:31'],
  },
  {
    name: 'Алексей',
    lastName: 'Попов',
    email: 'alexey.popov@callcenter.example',
    accessGroup: 'call-center',
    isActive: false,
    skills: ['ru'],
    seen: [80, '09:00:00', '12:30:00'],
  },
  {
    name: 'Emily',
    lastName: 'Johnson',
    email: 'emily.johnson@callcenter.example',
    accessGroup: 'call-center',
    lang: 'gb',
    skills: ['gb'],
    webRtc: true,
    telegram: { chatId: '401100207', enabled: true },
    seen: [1, '07:58:20', '15:47:09'],
  },
  {
    name: 'James',
    lastName: 'Wilson',
    email: 'james.wilson@callcenter.example',
    accessGroup: 'call-center',
    lang: 'gb',
    skills: ['gb'],
    webRtc: true,
    phoneMode: 'predictive',
    autoAnswer: -1,
    email_: { enabled: true },
  },
  {
    name: 'Екатерина',
    lastName: 'Волкова',
    email: 'ekaterina.volkova@callcenter.example',
    accessGroup: 'call-center',
    skills: ['ru', 'gb'],
    webRtc: true,
    autoAnswer: 3,
    telegram: { chatId: '401100209', enabled: false },
    seen: [3, '09:30:00', '18:00:00'],
  },
  {
    name: 'Иван',
    lastName: 'Морозов',
    email: 'ivan.morozov@callcenter.example',
    accessGroup: 'call-center',
    isActive: false,
    skills: ['ru'],
    telegram: { chatId: '401100210', enabled: true },
  },
  {
    name: 'Наталья',
    lastName: 'Лебедева',
    email: 'natalia.lebedeva@callcenter.example',
    accessGroup: 'call-center-senior',
    skills: ['ru'],
    webRtc: true,
    email_: { enabled: true },
    seen: [1, '08:45:00', '17:15:00'],
  },
  {
    name: 'Oliver',
    lastName: 'Brown',
    email: 'oliver.brown@callcenter.example',
    accessGroup: 'call-center-senior',
    lang: 'gb',
    skills: ['gb', 'ru'],
    webRtc: true,
    telegram: { chatId: '401100212', enabled: true, urgentOnly: true },
    email_: { enabled: true, urgentOnly: true },
  },
  {
    name: 'Павел',
    lastName: 'Новиков',
    email: 'pavel.novikov@callcenter.example',
    accessGroup: 'arbitration',
    email_: { enabled: true },
    seen: [4, '11:00:00', '11:40:00'],
  },
  { name: 'Татьяна', lastName: 'Фёдорова', email: 'tatiana.fedorova@callcenter.example', accessGroup: 'arbitration', isActive: false },
  {
    name: 'Андрей',
    lastName: 'Егоров',
    email: 'andrey.egorov@callcenter.example',
    accessGroup: 'moderator',
    telegram: { chatId: '401100215', enabled: true },
    seen: [1, '12:00:00', '12:20:00'],
  },
  {
    name: 'Sophie',
    lastName: 'Martin',
    email: 'sophie.martin@callcenter.example',
    accessGroup: 'moderator',
    lang: 'gb',
    email_: { enabled: true, urgentOnly: true },
  },
  {
    name: 'Михаил',
    lastName: 'Козлов',
    email: 'm.kozlov@romashka-shop.example',
    accessGroup: 'client',
    email_: { enabled: true },
    seen: [6, '14:03:00', '14:25:00'],
  },
  { name: 'Елена', lastName: 'Орлова', email: 'elena.orlova@callcenter.example', accessGroup: '', isActive: false },
  {
    name: 'Виктор',
    lastName: 'Андреев',
    email: 'viktor.andreev@callcenter.example',
    accessGroup: 'call-center',
    skills: ['ru'],
    webRtc: true,
    phoneMode: 'outgoing-only',
    telegram: { chatId: '401100219', enabled: true },
    seen: [1, '09:05:00', '13:10:00'],
  },
  {
    name: 'Charlotte',
    lastName: 'Davies',
    email: 'charlotte.davies@callcenter.example',
    accessGroup: 'call-center',
    lang: 'gb',
    skills: ['gb'],
    webRtc: true,
    phoneMode: 'incoming-only',
    autoAnswer: 5,
    email_: { enabled: true },
  },
];

/** Users first: everything else refers to them by e-mail. On a fresh database their ids are 1..20 in this order. */
export const usersDemoSeed: DemoSeedStep = {
  name: 'reference-data:users',
  order: 10,
  async run(m: EntityManager) {
    const now = new Date();
    const joined = daysAgoAt(now, DEMO_USERS_JOINED_DAYS_AGO, '09:00:00');
    const rows = DEMO_USERS.map((u) => ({
      name: u.name,
      lastName: u.lastName,
      email: u.email,
      isActive: u.isActive ?? true,
      accessGroup: u.accessGroup,
      webRtcIsEnabled: u.webRtc ?? false,
      interfaceLanguageCode: u.lang ?? 'ru',
      languageSkillsCode: u.skills ?? [],
      autoAnswer: u.autoAnswer ?? 0,
      phoneMode: u.phoneMode ?? 'default',
      telegramNotificationsEnabled: u.telegram?.enabled ?? false,
      telegramChatId: u.telegram?.chatId ?? null,
      telegramNotificationsPriority: u.telegram?.urgentOnly ? ('urgent' as const) : null,
      emailNotificationsEnabled: u.email_?.enabled ?? false,
      emailNotificationsPriority: u.email_?.urgentOnly ? ('urgent' as const) : null,
      lastLoginAt: u.seen ? daysAgoAt(now, u.seen[0], u.seen[1]) : null,
      lastActivityAt: u.seen ? daysAgoAt(now, u.seen[0], u.seen[2]) : null,
      createdAt: joined,
      updatedAt: joined,
    }));
    // An e-mail already there (app_user_email_idx, case-insensitive) keeps its user.
    await m.getRepository(UserEntity).createQueryBuilder().insert().values(rows).orIgnore().updateEntity(false).execute();
  },
};
