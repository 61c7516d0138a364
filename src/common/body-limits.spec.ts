import { BODY_LIMIT_RULES, bodyLimitFor, DEFAULT_BODY_LIMIT, distinctBodyLimits, formatBytes, MAX_BODY_LIMIT } from './body-limits';

describe('body limits', () => {
  it('finds the limit of the route a path leads to, with or without the trailing slash, in any case', () => {
    expect(bodyLimitFor('/v2/lead/create/')).toBe(256 * 1024);
    expect(bodyLimitFor('/v2/lead/create')).toBe(256 * 1024);
    expect(bodyLimitFor('/V2/LEAD/update/5')).toBe(256 * 1024);
    expect(bodyLimitFor('/v2/lead')).toBe(256 * 1024);
    expect(bodyLimitFor('/v1/notification/public/')).toBe(32 * 1024);
    expect(bodyLimitFor('/v2/order/create/')).toBe(256 * 1024);
    expect(bodyLimitFor('/v2/lead/create-batch')).toBe(1024 * 1024);
    expect(bodyLimitFor('/v2/lead/create-batch-x/')).toBe(256 * 1024);
  });

  it('gives other routes the default, also those whose name starts like a listed one', () => {
    expect(bodyLimitFor('/v2/lead-status/create/')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor('/v2/leads/create/')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor('/v2/user/create/')).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor('/nowhere')).toBe(DEFAULT_BODY_LIMIT);
  });

  it('never exceeds the 1 MiB ceiling, and each limit has one parser', () => {
    for (const rule of BODY_LIMIT_RULES) expect(rule.bytes).toBeLessThanOrEqual(MAX_BODY_LIMIT);
    expect(distinctBodyLimits()).toEqual([32 * 1024, 64 * 1024, 256 * 1024, 512 * 1024, 1024 * 1024]);
  });

  it('formats sizes for messages', () => {
    expect(formatBytes(256 * 1024)).toBe('256 KiB');
    expect(formatBytes(1024 * 1024)).toBe('1 MiB');
    expect(formatBytes(1000)).toBe('1000 bytes');
  });
});
