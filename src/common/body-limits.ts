/**
 * Request body limits per route, sized to the largest valid body of its resource (PRODUCT.md: never above 1 MiB). The parser
 * reads at most this much after decompression; past it the request is a 413 naming the limit. Looked up by path prefix
 * before routing, so the table is keyed by the route's resource, not by the controller method.
 */

const KiB = 1024;

/** PRODUCT.md's ceiling: no route reads more. */
export const MAX_BODY_LIMIT = 1024 * KiB;

/** Everything not listed below: reference data, calls, statuses, API keys (each well under 16 KiB valid). */
export const DEFAULT_BODY_LIMIT = 64 * KiB;

export interface BodyLimitRule {
  /** Lower-case path prefix (Express matches routes case-insensitively). */
  prefix: string;
  bytes: number;
  /** Why this size: the largest valid body of the resource. */
  why: string;
}

export const BODY_LIMIT_RULES: readonly BodyLimitRule[] = [
  {
    prefix: '/v1/notification/',
    bytes: 32 * KiB,
    why: 'title (255) and text (4,000 characters), even when every character is \\u-escaped (6 bytes)',
  },
  {
    prefix: '/v2/lead/create-batch/',
    bytes: MAX_BODY_LIMIT,
    why: "1,000 leads of about 1 KiB each (a lead's usual fields and a few custom values; PRODUCT.md's 1 MiB ceiling: larger items go one by one)",
  },
  {
    prefix: '/v2/call/create-batch/',
    bytes: 512 * KiB,
    why: '500 calls of about 1 KiB each (every field of a call at its longest)',
  },
  {
    prefix: '/v2/lead/',
    bytes: 256 * KiB,
    why: 'sourceComment of up to 65,535 characters (UTF-8: up to 3 bytes each) plus the other fields and 200 custom values',
  },
  { prefix: '/v1/lead/', bytes: 256 * KiB, why: 'quiz_log of up to 65,535 characters (UTF-8: up to 3 bytes each) plus the other fields' },
  {
    prefix: '/v2/order/',
    bytes: 256 * KiB,
    why: 'three id lists of 1,000, 366 holidays, 50 transfer numbers and 200 custom values',
  },
  { prefix: '/v2/custom-field/', bytes: 512 * KiB, why: '500 options with titles of up to 255 characters' },
];

/** The body limit of the route a request path leads to. */
export function bodyLimitFor(path: string): number {
  const p = path.toLowerCase();
  const withSlash = p.endsWith('/') ? p : `${p}/`;
  return BODY_LIMIT_RULES.find((r) => withSlash.startsWith(r.prefix))?.bytes ?? DEFAULT_BODY_LIMIT;
}

/** Every distinct limit, one body parser each. */
export function distinctBodyLimits(): number[] {
  return [...new Set([DEFAULT_BODY_LIMIT, ...BODY_LIMIT_RULES.map((r) => r.bytes)])].sort((a, b) => a - b);
}

/** 262144 -> "256 KiB", 1048576 -> "1 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * KiB && bytes % (1024 * KiB) === 0) return `${bytes / (1024 * KiB)} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}
