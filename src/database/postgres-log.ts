/**
 * The embedded server's log lines as the service may log them: only failures (ERROR, FATAL, PANIC), one line each, never
 * PostgreSQL's DETAIL, STATEMENT, QUERY, CONTEXT or HINT lines (they quote the refused values and the statement's text),
 * and with quoted values blanked in what is kept. A handled 409 (a unique value taken) thus logs the constraint's name, not
 * the value (docs/operations.md: personal data is never logged). The server is also started with terse error verbosity and
 * no statement logging (embedded-postgres.ts); this filter holds whatever it writes.
 */

/**
 * `2026-01-02 03:04:05.678 UTC [123] ERROR:  message` (PostgreSQL's default log_line_prefix, `%m [%p] `): the severity.
 * A line without that prefix (a statement's continuation line, initdb's chatter) matches nothing and is dropped.
 */
const SEVERITY = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[\d+\] ([A-Z]+\d?):\s/;
const KEPT = new Set(['ERROR', 'FATAL', 'PANIC']);

/** Words after which PostgreSQL quotes a name of the schema or server, not a value. */
const NAME_WORDS = new Set([
  'constraint',
  'relation',
  'column',
  'table',
  'index',
  'type',
  'function',
  'database',
  'role',
  'user',
  'schema',
  'sequence',
  'trigger',
  'view',
  'extension',
  'operator',
  'parameter',
  'domain',
  'worker',
  'file',
  'directory',
]);

/** Each double-quoted string that does not follow a name word (`constraint "x"`) becomes `"…"`. */
export function blankQuotedValues(line: string): string {
  return line.replace(/(\w+)?(\s*)"(?:[^"]|"")*"/g, (quoted: string, word: string | undefined, space: string) =>
    word !== undefined && NAME_WORDS.has(word.toLowerCase()) ? quoted : `${word ?? ''}${space}"…"`,
  );
}

/** The server's own stop: SIGINT, SIGTERM or `pg_ctl stop` reached the postmaster (a terminal's Ctrl-C reaches the whole process group). */
const SHUTDOWN_REQUEST = /LOG:\s+received (?:smart|fast|immediate) shutdown request/;
/** What a stopping server writes for each connection still open: expected then, a failure only outside a shutdown. */
const ENDED_BY_SHUTDOWN = /FATAL:\s+terminating connection due to administrator command/;

/**
 * The lines of the server's output that the service logs, chunk after chunk. It remembers one thing: once the server
 * has received a shutdown request, the connections it ends are not failures and are dropped. The server hears a
 * terminal's Ctrl-C before the service's own handler runs, so the service's shutdown flag comes too late to tell.
 */
export class ServerLogFilter {
  private serverStopping = false;

  lines(chunk: string): string[] {
    const out: string[] = [];
    for (const line of chunk.split('\n')) {
      if (SHUTDOWN_REQUEST.test(line)) this.serverStopping = true;
      const severity = SEVERITY.exec(line)?.[1];
      if (severity === undefined || !KEPT.has(severity)) continue;
      if (this.serverStopping && ENDED_BY_SHUTDOWN.test(line)) continue;
      out.push(blankQuotedValues(line.trim()));
    }
    return out;
  }
}

/** The lines of one chunk of the server's output that the service logs (a filter that has seen nothing before it). */
export function serverLogLines(chunk: string): string[] {
  return new ServerLogFilter().lines(chunk);
}
