import { ConfigError, loadConfig } from './app.config';

describe('EVENT_RETENTION_DAYS', () => {
  it('defaults to 30 days and takes 1..3650', () => {
    expect(loadConfig({}).eventRetentionDays).toBe(30);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '7' }).eventRetentionDays).toBe(7);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '3650' }).eventRetentionDays).toBe(3650);
  });

  it('refuses 0, negative, fractional and non-numeric values, naming the variable', () => {
    for (const value of ['0', '-1', '1.5', 'month', '3651']) {
      expect(() => loadConfig({ EVENT_RETENTION_DAYS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ EVENT_RETENTION_DAYS: value })).toThrow(/EVENT_RETENTION_DAYS/);
    }
  });
});
