import { DateTime } from 'luxon';

export const ACCESS_GROUPS = ['client', 'call-center', 'call-center-senior', 'arbitration', 'moderator', 'admin'] as const;
export type AccessGroup = (typeof ACCESS_GROUPS)[number];
/** '' = the user belongs to no access group (API.md). */
export const ACCESS_GROUP_VALUES = ['', ...ACCESS_GROUPS] as const;
export type AccessGroupValue = (typeof ACCESS_GROUP_VALUES)[number];

export const LANGUAGE_CODES = ['ru', 'gb'] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export const PHONE_MODES = ['default', 'outgoing-only', 'incoming-only', 'predictive'] as const;
export type PhoneMode = (typeof PHONE_MODES)[number];

/** null = every notification, 'urgent' = only urgent ones. */
export const NOTIFICATION_PRIORITIES = ['urgent'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

/** -1 answers at once, 0 disables auto-answer, 1..10 = seconds before answering. */
export const AUTO_ANSWER_MIN = -1;
export const AUTO_ANSWER_MAX = 10;

/**
 * What `avatar` holds when the user has none: API.md promises a placeholder image URL, never null.
 * A constant string; the service never fetches it.
 */
export const AVATAR_PLACEHOLDER_URL = 'https://www.gravatar.com/avatar/00000000000000000000000000000000?d=mp&f=y';

export interface User {
  id: number;
  name: string | null;
  lastName: string | null;
  email: string;
  isActive: boolean;
  accessGroup: AccessGroupValue;
  webRtcIsEnabled: boolean;
  interfaceLanguageCode: LanguageCode;
  languageSkillsCode: LanguageCode[];
  autoAnswer: number;
  phoneMode: PhoneMode;
  avatar: string | null;
  telegramNotificationsEnabled: boolean;
  telegramChatId: string | null;
  telegramNotificationsPriority: NotificationPriority | null;
  emailNotificationsEnabled: boolean;
  emailNotificationsPriority: NotificationPriority | null;
  lastLoginAt: Date | null;
  lastActivityAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Users to reach: one by id, or by access group and activity (absent fields do not filter). */
export interface ContactFilter {
  id?: number;
  accessGroup?: AccessGroup;
  isActive?: boolean;
}

/** What reaching a user takes: whether they are active, their addresses and their notification settings. */
export type UserContact = Pick<
  User,
  | 'id'
  | 'email'
  | 'isActive'
  | 'emailNotificationsEnabled'
  | 'emailNotificationsPriority'
  | 'telegramChatId'
  | 'telegramNotificationsEnabled'
  | 'telegramNotificationsPriority'
>;

/** The writable part of a user (everything but id and the timestamps the service keeps). */
export type UserFields = Omit<User, 'id' | 'createdAt' | 'updatedAt'>;

export function avatarOrPlaceholder(avatar: string | null | undefined): string {
  return avatar ? avatar : AVATAR_PLACEHOLDER_URL;
}

/**
 * Input form of lastLoginAt / lastActivityAt: ISO 8601 (an offset is honoured, none means UTC)
 * or the output form `yyyy-mm-dd hh:mm:ss` (UTC). Returns null when unparsable.
 */
export function parseUserDateTime(value: string): Date | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const iso = DateTime.fromISO(value, { zone: 'utc' });
  const dt = iso.isValid ? iso : DateTime.fromSQL(value, { zone: 'utc' });
  if (!dt.isValid || dt.year < 1970 || dt.year > 9999) return null;
  return dt.toJSDate();
}

/** Language skills are a set: duplicates collapse, order follows first appearance. */
export function normaliseLanguageSkills(codes: LanguageCode[]): LanguageCode[] {
  return [...new Set(codes)];
}

/** A create or update request as it arrives (dates as strings); absent fields are undefined. */
export type UserInput = Partial<Omit<UserFields, 'lastLoginAt' | 'lastActivityAt'>> & {
  lastLoginAt?: string | null;
  lastActivityAt?: string | null;
};

/** Turns validated input into the fields to store, leaving absent fields out. */
export function toUserFields(input: UserInput): Partial<UserFields> {
  const { lastLoginAt, lastActivityAt, languageSkillsCode, ...rest } = input;
  const out: Partial<UserFields> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  if (languageSkillsCode !== undefined) out.languageSkillsCode = normaliseLanguageSkills(languageSkillsCode);
  if (lastLoginAt !== undefined) out.lastLoginAt = lastLoginAt === null ? null : parseUserDateTime(lastLoginAt);
  if (lastActivityAt !== undefined) out.lastActivityAt = lastActivityAt === null ? null : parseUserDateTime(lastActivityAt);
  return out;
}
