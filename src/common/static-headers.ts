import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** A header a middleware sets (a value) or removes (null). */
type HeaderChange = [name: string, value: string | number | readonly string[] | null];

/**
 * What a header-only middleware (helmet) does to a response, recorded once on a stand-in
 * response: null when it does anything else (reads the request, calls other methods, fails or
 * answers asynchronously), i.e. when its headers may depend on the request.
 */
export function recordHeaderChanges(middleware: RequestHandler): HeaderChange[] | null {
  const changes: HeaderChange[] = [];
  let dynamic = false;
  let passed = false;
  const req = new Proxy(
    {},
    {
      get: () => {
        dynamic = true;
        return undefined;
      },
    },
  );
  const res = new Proxy(
    {},
    {
      get: (_target, prop) => {
        if (prop === 'setHeader') return (name: string, value: HeaderChange[1]) => void changes.push([name, value]);
        if (prop === 'removeHeader') return (name: string) => void changes.push([name, null]);
        dynamic = true;
        return undefined;
      },
    },
  );
  try {
    void middleware(req as Request, res as Response, (err?: unknown) => {
      passed = err === undefined;
    });
  } catch {
    return null;
  }
  return passed && !dynamic ? changes : null;
}

/**
 * The same headers as `middleware`, worked out once at start-up: helmet runs a chain of a dozen
 * middlewares per request to set headers that never change (our policy has no per-request
 * parts). Falls back to `middleware` itself when its headers may depend on the request.
 */
export function staticHeaders(middleware: RequestHandler): RequestHandler {
  const changes = recordHeaderChanges(middleware);
  if (!changes) return middleware;
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of changes) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}
