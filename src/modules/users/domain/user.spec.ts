import { AVATAR_PLACEHOLDER_URL, avatarOrPlaceholder, normaliseLanguageSkills, parseUserDateTime, toUserFields } from './user';

describe('user rules', () => {
  it('parses ISO 8601 and the sql form as UTC', () => {
    expect(parseUserDateTime('2026-03-04 05:06:07')?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(parseUserDateTime('2026-03-04T05:06:07Z')?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(parseUserDateTime('2026-03-04T08:06:07+03:00')?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(parseUserDateTime('2026-03-04T05:06:07')?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
  });

  it('rejects what is not a date-time', () => {
    for (const bad of ['', 'yesterday', '2026-13-01 00:00:00', '2026-02-30T00:00:00Z', '1969-12-31 23:59:59', 'x'.repeat(50)]) {
      expect(parseUserDateTime(bad)).toBeNull();
    }
  });

  it('falls back to the placeholder avatar', () => {
    expect(avatarOrPlaceholder(null)).toBe(AVATAR_PLACEHOLDER_URL);
    expect(avatarOrPlaceholder('')).toBe(AVATAR_PLACEHOLDER_URL);
    expect(avatarOrPlaceholder('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
  });

  it('collapses duplicate language skills', () => {
    expect(normaliseLanguageSkills(['gb', 'ru', 'gb'])).toEqual(['gb', 'ru']);
  });
});

describe('toUserFields', () => {
  it('keeps only the fields sent, parses dates, keeps nulls', () => {
    expect(toUserFields({ name: null, isActive: false, lastLoginAt: '2026-01-02 03:04:05', lastActivityAt: null, languageSkillsCode: ['ru', 'ru'] })).toEqual({
      name: null,
      isActive: false,
      lastLoginAt: new Date('2026-01-02T03:04:05Z'),
      lastActivityAt: null,
      languageSkillsCode: ['ru'],
    });
    expect(toUserFields({})).toEqual({});
  });
});
