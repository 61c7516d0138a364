export const LEAD_STATUS_CATEGORIES = ['in-progress', 'qualified', 'rejected', 'closed'] as const;
export type LeadStatusCategory = (typeof LEAD_STATUS_CATEGORIES)[number];

export interface LeadStatus {
  id: number;
  title: string;
  category: LeadStatusCategory;
  isDefault: boolean;
}

export const CALL_STATUS_CATEGORIES = ['answered', 'not-answered', 'failed'] as const;
export type CallStatusCategory = (typeof CALL_STATUS_CATEGORIES)[number];

export interface CallStatus {
  id: number;
  title: string;
  category: CallStatusCategory;
  isCallback: boolean;
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
