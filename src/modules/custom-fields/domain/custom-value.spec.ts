import { CustomFieldDefinition, checkCustomValue, referencedFieldIds, validateCustomValues } from './custom-value';

const f = (id: number, type: CustomFieldDefinition['type'], essence: CustomFieldDefinition['essence'] = 'leads', optionCodes: string[] = []) => ({
  id,
  type,
  essence,
  optionCodes,
});

describe('custom values', () => {
  const fields = new Map([
    [1, f(1, 'string')],
    [2, f(2, 'int')],
    [3, f(3, 'float')],
    [4, f(4, 'date')],
    [5, f(5, 'datetime')],
    [6, f(6, 'bool')],
    [7, f(7, 'select', 'leads', ['a', 'b'])],
    [8, f(8, 'multiselect', 'leads', ['x', 'y', 'z'])],
    [9, f(9, 'string', 'orders')],
  ]);

  it('accepts and normalises every type', () => {
    const r = validateCustomValues(
      { 1: 'hi', 2: '42', 3: 1.5, 4: '31.12.2026', 5: '2026-12-31T10:00:00+03:00', 6: 'true', 7: 'a', 8: 'x, y,x' },
      'leads',
      fields,
    );
    expect(r).toEqual({
      ok: true,
      value: { 1: 'hi', 2: 42, 3: 1.5, 4: '2026-12-31', 5: '2026-12-31T07:00:00Z', 6: true, 7: 'a', 8: 'x,y' },
    });
  });

  it('rejects unknown fields, other essences and bad values, naming each', () => {
    const r = validateCustomValues({ 99: 'x', 9: 'y', 2: 'forty', 7: 'c', 8: 'x,w', abc: 1 }, 'leads', fields);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.field).sort()).toEqual(
      ['customValues.2', 'customValues.7', 'customValues.8', 'customValues.9', 'customValues.99', 'customValues.abc'].sort(),
    );
  });

  it('treats [] as an empty map and rejects other non-objects', () => {
    expect(validateCustomValues([], 'orders', fields)).toEqual({ ok: true, value: {} });
    expect(validateCustomValues('x', 'orders', fields).ok).toBe(false);
    expect(validateCustomValues(null, 'orders', fields).ok).toBe(false);
  });

  it('checks ints and dates strictly', () => {
    expect(checkCustomValue(f(1, 'int'), 1.5).ok).toBe(false);
    expect(checkCustomValue(f(1, 'int'), 99999999999).ok).toBe(false);
    expect(checkCustomValue(f(1, 'date'), '2026-02-30').ok).toBe(false);
    expect(checkCustomValue(f(1, 'bool'), 'maybe').ok).toBe(false);
  });

  it('lists referenced ids', () => {
    expect(referencedFieldIds({ 1: 'a', x: 2, 30: 3 })).toEqual([1, 30]);
    expect(referencedFieldIds([])).toEqual([]);
  });
});
