import { ConfigError, loadConfig } from './app.config';

describe('shutdown settings', () => {
  it('drains 5 s and allows 30 s by default', () => {
    expect(loadConfig({})).toMatchObject({ shutdownDrainSeconds: 5, shutdownTimeoutSeconds: 30 });
  });
  it('takes 0 as a drain (tests, instances without traffic)', () => {
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '0', SHUTDOWN_TIMEOUT_SECONDS: '10' })).toMatchObject({ shutdownDrainSeconds: 0, shutdownTimeoutSeconds: 10 });
  });
  it('refuses a drain that does not fit in the timeout, naming both', () => {
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '30' })).toThrow(ConfigError);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '30' })).toThrow(/SHUTDOWN_DRAIN_SECONDS=30: must be less than SHUTDOWN_TIMEOUT_SECONDS \(30\)/);
  });
  it('refuses a timeout of 0 and a negative drain', () => {
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(/SHUTDOWN_TIMEOUT_SECONDS="0"/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(/SHUTDOWN_DRAIN_SECONDS="-1"/);
  });
});
