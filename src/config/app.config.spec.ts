import { ConfigError, loadConfig } from './app.config';

describe('loadConfig', () => {
  it('applies defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe('./data');
    expect(c.leadDuplicateWindowDays).toBe(30);
    expect(c.seedDemo).toBe(false);
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
