import { ConfigError, loadConfig } from './app.config';

describe('loadConfig', () => {
  it('applies defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe('./data');
    expect(c.leadDuplicateWindowDays).toBe(30);
    expect(c.seedDemo).toBe(false);
    // A development start prints an all-scopes key: its API listens on this machine only unless HOST says otherwise.
    expect(c.host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
  it('parses typed values', () => {
    const c = loadConfig({ PORT: '8080', SEED_DEMO: 'true', WORKERS: '0' });
    expect(c).toMatchObject({ port: 8080, seedDemo: true, workers: 0 });
  });
  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({ TELEPHONY_PLATFORM_URL: 'not a url' })).toThrow(/TELEPHONY_PLATFORM_URL/);
  });
});
