import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { recordHeaderChanges, staticHeaders } from './static-headers';

/** A response that records its headers as Node's would hold them. */
function fakeResponse() {
  const headers = new Map<string, unknown>();
  const res = {
    setHeader: (name: string, value: unknown) => void headers.set(name.toLowerCase(), value),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  return { res: res as unknown as Response, headers };
}

describe('staticHeaders', () => {
  const policy = helmet({ contentSecurityPolicy: { directives: { 'style-src': ["'self'", "'unsafe-inline'"], 'upgrade-insecure-requests': null } } });

  it('sets exactly the headers helmet sets, and removes what it removes', () => {
    const byHelmet = fakeResponse();
    byHelmet.headers.set('x-powered-by', 'Express');
    policy({} as Request, byHelmet.res, () => undefined);
    const once = fakeResponse();
    once.headers.set('x-powered-by', 'Express');
    const next = jest.fn();
    staticHeaders(policy)({} as Request, once.res, next as NextFunction);
    expect(next).toHaveBeenCalledWith();
    expect([...once.headers]).toEqual([...byHelmet.headers]);
    expect(once.headers.get('content-security-policy')).toContain("style-src 'self' 'unsafe-inline'");
    expect(once.headers.has('x-powered-by')).toBe(false);
  });

  it('keeps a middleware whose headers may depend on the request', () => {
    const perRequest = (req: Request, res: Response, next: NextFunction) => {
      res.setHeader('X-Path', req.path);
      next();
    };
    expect(recordHeaderChanges(perRequest)).toBeNull();
    expect(staticHeaders(perRequest)).toBe(perRequest);
    const failing = (_req: Request, _res: Response, next: NextFunction) => next(new Error('no'));
    expect(staticHeaders(failing)).toBe(failing);
    const async = (_req: Request, res: Response, next: NextFunction) => void setImmediate(() => (res.setHeader('X-Later', '1'), next()));
    expect(staticHeaders(async)).toBe(async);
  });
});
