import type { CustomFieldRow } from '../persistence/custom-fields.repository';

/** The Custom field object of API.md. */
export interface CustomFieldView {
  id: number;
  title: string;
  type: string;
  essence: string;
  params: { code: string; sort: number; title: string }[];
  sort: number;
}

export function presentCustomField(row: CustomFieldRow): CustomFieldView {
  return {
    id: row.id,
    title: row.title,
    type: row.type,
    essence: row.essence,
    params: row.options.map((o) => ({ code: o.code, sort: o.sort, title: o.title })),
    sort: row.sort,
  };
}
