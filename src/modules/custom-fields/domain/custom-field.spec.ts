import { validateOptions } from './custom-field';

describe('custom field options', () => {
  it('requires options for select and multiselect', () => {
    expect(validateOptions('select', undefined, true)).toEqual({
      ok: false,
      errors: [{ field: 'params', message: 'a select field needs at least one option' }],
    });
    expect(validateOptions('multiselect', [], true).ok).toBe(false);
    // on update, params left out means "keep the options"
    expect(validateOptions('select', undefined, false)).toEqual({ ok: true, value: [] });
    expect(validateOptions('select', [], false).ok).toBe(false);
  });

  it('applies the default sort', () => {
    expect(
      validateOptions(
        'select',
        [
          { code: 'a', title: 'A' },
          { code: 'b', title: 'B', sort: 5 },
        ],
        true,
      ),
    ).toEqual({
      ok: true,
      value: [
        { code: 'a', title: 'A', sort: 100 },
        { code: 'b', title: 'B', sort: 5 },
      ],
    });
  });

  it('rejects bad and duplicate codes, naming the item', () => {
    const r = validateOptions(
      'multiselect',
      [{ code: 'ok' }, { code: 'Bad code' }, { code: 'ok' }].map((p) => ({ ...p, title: 't' })),
      true,
    );
    expect(r).toEqual({
      ok: false,
      errors: [
        { field: 'params.1.code', message: 'must be 1-64 characters a-z, 0-9, _ or -' },
        { field: 'params.2.code', message: 'duplicate option code ok' },
      ],
    });
  });

  it('accepts no options or [] for other types, rejects a non-empty list', () => {
    expect(validateOptions('string', undefined, true)).toEqual({ ok: true, value: [] });
    expect(validateOptions('int', [], true)).toEqual({ ok: true, value: [] });
    expect(validateOptions('bool', [{ code: 'a', title: 'A' }], true).ok).toBe(false);
  });
});
