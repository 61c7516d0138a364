import { missingReferenceErrors, normaliseOrderInput, parseLanguageCode, presentLanguageCode, referencesOf } from './order';

describe('normaliseOrderInput', () => {
  it('keeps only the keys sent and normalises schedule, holidays, language, ids and names', () => {
    const r = normaliseOrderInput({
      title: 'T',
      callSchedule: [['09:00', '18:00']],
      callHolidayOverrides: ['08.03.2027', '2027-01-01', '1 January 2027'],
      aiDefaultLanguage: 'en',
      agentUserIds: [3, 1, 3, 2, 1],
      sipEndpointIds: [5, 5],
      transferNumbers: [{ number: '+74950000000', names: { ru: 'Отдел продаж', EN: 'Sales' } }, { number: '100' }, { number: '101', names: [] }],
      qualifiedLeadsPerDayLimit: null,
    });
    expect(r).toEqual({
      ok: true,
      value: {
        title: 'T',
        callSchedule: [['09:00', '18:00'], [], [], [], [], [], []],
        callHolidayOverrides: ['2027-01-01', '2027-03-08'],
        aiDefaultLanguage: 'gb',
        agentUserIds: [3, 1, 2],
        sipEndpointIds: [5],
        transferNumbers: [
          { number: '+74950000000', names: { ru: 'Отдел продаж', gb: 'Sales' } },
          { number: '100', names: {} },
          { number: '101', names: {} },
        ],
        qualifiedLeadsPerDayLimit: null,
      },
    });
  });

  it('returns an empty change set for an empty input', () => {
    expect(normaliseOrderInput({})).toEqual({ ok: true, value: {} });
    expect(normaliseOrderInput({ aiDefaultLanguage: null })).toEqual({ ok: true, value: { aiDefaultLanguage: null } });
  });

  it('reports every bad field', () => {
    const r = normaliseOrderInput({
      code: 'Bad Code',
      callSchedule: Array(8).fill([]),
      callHolidayOverrides: ['someday'],
      aiDefaultLanguage: 'de',
      transferNumbers: [
        { number: '1', names: { fr: 'Nom', ru: '' } },
        { number: '2', names: 'x' },
      ],
    });
    expect(r).toEqual({
      ok: false,
      errors: [
        { field: 'code', message: 'must be 1-64 characters a-z, 0-9, - or _' },
        { field: 'callSchedule', message: 'must have at most 7 items' },
        { field: 'callHolidayOverrides', message: 'item 0: not a recognisable date' },
        { field: 'aiDefaultLanguage', message: 'must be one of: ru, gb, en (en means gb)' },
        { field: 'transferNumbers.0.names.fr', message: 'unknown language code (use one of: ru, gb, en)' },
        { field: 'transferNumbers.0.names.ru', message: 'must be a non-empty string of at most 255 characters' },
        { field: 'transferNumbers.1.names', message: 'must be an object of language code to name' },
      ],
    });
  });
});

describe('languages', () => {
  it('accepts ru, gb and en (as gb)', () => {
    expect(parseLanguageCode('ru')).toBe('ru');
    expect(parseLanguageCode('GB')).toBe('gb');
    expect(parseLanguageCode('en')).toBe('gb');
    expect(parseLanguageCode('de')).toBeNull();
    expect(parseLanguageCode(1)).toBeNull();
    expect(presentLanguageCode(null)).toBeNull();
    expect(presentLanguageCode('en')).toBe('gb');
  });
});

describe('references', () => {
  it('names the missing ids per field', () => {
    const requested = referencesOf({ agentUserIds: [1, 7, 9], sipEndpointIds: [2], callAttemptGroupId: 4, callScenarioId: 5, clientId: 6 });
    const existing = { agentUserIds: [1], agentGroupIds: [], sipEndpointIds: [2], callAttemptGroupId: [], callScenarioId: [5], clientId: [] };
    expect(missingReferenceErrors(requested, existing)).toEqual([
      { field: 'agentUserIds', message: 'unknown ids: 7, 9' },
      { field: 'callAttemptGroupId', message: 'unknown id: 4' },
      { field: 'clientId', message: 'unknown id: 6' },
    ]);
    expect(missingReferenceErrors(requested, requested)).toEqual([]);
  });

  it('takes a null clientId (the call center own order) as no reference', () => {
    expect(referencesOf({ clientId: null }).clientId).toEqual([]);
  });
});
