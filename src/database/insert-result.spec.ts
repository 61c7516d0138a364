import { InsertResult } from 'typeorm';
import { insertedId, returnedId } from './insert-result';

const result = (identifiers: object[], raw: unknown): InsertResult => Object.assign(new InsertResult(), { identifiers, raw, generatedMaps: [] });

describe('insert results', () => {
  it('insertedId reads the id TypeORM returned and refuses anything else', () => {
    expect(insertedId(result([{ id: 7 }], [{ id: 7 }]))).toBe(7);
    expect(() => insertedId(result([], []))).toThrow('no id');
    expect(() => insertedId(result([{ id: '7' }], []))).toThrow('no id');
  });

  it('returnedId is null when ON CONFLICT DO NOTHING skipped the row', () => {
    expect(returnedId(result([], [{ id: 3 }]))).toBe(3);
    expect(returnedId(result([], []))).toBeNull();
  });
});
