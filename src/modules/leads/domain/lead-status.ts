export const LEAD_STATUS_CATEGORIES = ['in-progress', 'qualified', 'rejected', 'closed'] as const;
export type LeadStatusCategory = (typeof LEAD_STATUS_CATEGORIES)[number];

/** A status code: stable, unique within its catalogue. */
export const STATUS_CODE = /^[a-z0-9_-]{1,64}$/;

export interface LeadStatus {
  id: number;
  code: string;
  title: string;
  category: LeadStatusCategory;
  isDefault: boolean;
}

/**
 * The catalogue keeps exactly one default lead status, and it is one a lead may be created
 * with. Returns the problem with a change to status `current` (null when creating), or null.
 */
export function defaultStatusProblem(
  current: Pick<LeadStatus, 'category' | 'isDefault'> | null,
  change: { category?: LeadStatusCategory; isDefault?: boolean },
): { field: string; message: string } | null {
  const isDefault = change.isDefault ?? current?.isDefault ?? false;
  const category = change.category ?? current?.category;
  if (current?.isDefault && change.isDefault === false) {
    return { field: 'isDefault', message: 'the catalogue needs a default status: make another status the default instead' };
  }
  if (isDefault && category !== 'in-progress') {
    return {
      field: change.category !== undefined ? 'category' : 'isDefault',
      message: 'the default lead status must be in-progress (leads are created with it)',
    };
  }
  return null;
}

export type StatusCheck = { ok: true; status: LeadStatus } | { ok: false; message: string };

/** A new lead's status: the requested one if it is in progress, else the catalogue's default. */
export function statusForCreate(catalogue: readonly LeadStatus[], requested: number | undefined): StatusCheck {
  if (requested === undefined) {
    const def = catalogue.find((s) => s.isDefault) ?? catalogue.find((s) => s.category === 'in-progress');
    return def ? { ok: true, status: def } : { ok: false, message: 'no default lead status is configured' };
  }
  const status = catalogue.find((s) => s.id === requested);
  if (!status) return { ok: false, message: `unknown lead status ${requested}` };
  if (status.category !== 'in-progress') {
    return { ok: false, message: `a lead can only be created with an in-progress status (status ${requested} is ${status.category})` };
  }
  return { ok: true, status };
}

/** Any known status may be set by an update. */
export function statusForUpdate(catalogue: readonly LeadStatus[], requested: number): StatusCheck {
  const status = catalogue.find((s) => s.id === requested);
  return status ? { ok: true, status } : { ok: false, message: `unknown lead status ${requested}` };
}
