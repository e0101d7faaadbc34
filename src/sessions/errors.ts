/** Typed failures of the session store, so the CLI and the engine can react precisely. */
import type { SessionSummary } from './types.js';

/** --resume with an unknown or ambiguous id: a usage error (exit 2) listing the candidates. */
export class SessionLookupError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly kind: 'unknown' | 'ambiguous',
    readonly query: string,
    /** Ambiguous: the matching sessions. Unknown: this project's most recent sessions. */
    readonly candidates: readonly SessionSummary[],
  ) {
    super(lookupMessage(kind, query, candidates));
    this.name = 'SessionLookupError';
  }
}

function lookupMessage(kind: 'unknown' | 'ambiguous', query: string, candidates: readonly SessionSummary[]): string {
  const head =
    kind === 'ambiguous'
      ? `session id '${query}' is ambiguous; it matches ${candidates.length} sessions:`
      : `no session '${query}' in this project` + (candidates.length > 0 ? '; recent sessions:' : ' (no saved sessions).');
  const rows = candidates.map((s) => `  ${s.id}  ${s.updatedAt}  ${oneLine(s.firstPrompt)}`);
  return [head, ...rows].join('\n');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/** Another live process holds the session; the caller offers a new session instead. */
export class SessionLockedError extends Error {
  constructor(
    readonly sessionId: string,
    readonly pid: number,
    readonly host: string,
  ) {
    super(`session ${sessionId} is open in another lindwyrm process (pid ${pid}${host ? ` on ${host}` : ''})`);
    this.name = 'SessionLockedError';
  }
}

/** A session file that is corrupt, from a newer version or unreadable. It is reported, never overwritten. */
export class SessionFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'SessionFileError';
  }
}
