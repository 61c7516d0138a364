import { ConfigError, loadConfig } from './app.config';

describe('API_KEY in the configuration', () => {
  it('refuses a key shorter than 32 characters, naming the variable but not echoing the key', () => {
    const short = 'secret-but-short-123';
    let caught: unknown;
    try {
      loadConfig({ API_KEY: short });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toMatch(/API_KEY=\(hidden\): must be at least 32 characters/);
    expect(message).not.toContain(short);
  });

  it('accepts a 32-character key and defaults the rotation grace to 24 hours', () => {
    const c = loadConfig({ API_KEY: 'k'.repeat(32) });
    expect(c.apiKey).toHaveLength(32);
    expect(c.apiKeyRotationGraceHours).toBe(24);
    expect(loadConfig({ API_KEY_ROTATION_GRACE_HOURS: '0' }).apiKeyRotationGraceHours).toBe(0);
  });

  it('refuses a key longer than the 200 characters a request may present', () => {
    expect(() => loadConfig({ API_KEY: 'k'.repeat(201) })).toThrow(/API_KEY=\(hidden\): must be at most 200 characters/);
  });
});
