/**
 * The JSON-lines audit log: one line per decision and one per outcome. It records what was
 * touched and how it was judged, never file contents or keys.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { redactEnvValues } from '../secrets/redact.js';
import { expandHome } from './resolve-path.js';

export interface AuditEntry {
  readonly session: string;
  readonly tool: string;
  /** 'network': a host a sandboxed command contacted or was refused (target host:port). */
  readonly event: 'decision' | 'outcome' | 'network';
  /** Resolved path, escaped command, or host:port. */
  readonly target?: string;
  /** allow / confirm / deny, and for a confirm the answer. */
  readonly decision?: string;
  readonly answer?: string;
  readonly reason?: string;
  /** ok / error / denied / interrupted. */
  readonly status?: string;
}

const MAX_FIELD = 2000;

/**
 * A field past MAX_FIELD is cut, and says so: `<name>_length` (characters) and `<name>_sha256`
 * (of the whole value, as logged: keys already redacted) let an audit tell two long commands
 * apart and check one against a copy kept elsewhere.
 */
function clipped(name: string, value: string | undefined): Record<string, string | number> {
  if (value === undefined) return {};
  if (value.length <= MAX_FIELD) return { [name]: value };
  return {
    [name]: `${value.slice(0, MAX_FIELD)}…`,
    [`${name}_length`]: value.length,
    [`${name}_sha256`]: createHash('sha256').update(value).digest('hex'),
  };
}

/** Chains writes per file so lines never interleave or reorder. */
const queues = new Map<string, Promise<void>>();

/** A command can carry a key the model found and pasted: the key variables' values never reach the log. */
function redacted(text: string | undefined, secretNames: readonly string[]): string | undefined {
  return text === undefined ? undefined : redactEnvValues(text, secretNames);
}

export function writeAudit(setting: string | undefined, entry: AuditEntry, secretNames: readonly string[] = []): Promise<void> {
  if (setting === undefined || setting === '') return Promise.resolve();
  const file = expandHome(setting);
  const line = JSON.stringify({
    time: new Date().toISOString(),
    session: entry.session,
    tool: entry.tool,
    event: entry.event,
    ...clipped('target', redacted(entry.target, secretNames)),
    decision: entry.decision,
    answer: entry.answer,
    ...clipped('reason', redacted(entry.reason, secretNames)),
    status: entry.status,
  }) + '\n';
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous
    .then(async () => {
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await appendFile(file, line, { mode: 0o600 });
    })
    // An unwritable log must not break a tool call; the failure is reported once on stderr.
    .catch((error: unknown) => reportOnce(file, error));
  queues.set(file, next);
  return next;
}

const reported = new Set<string>();
function reportOnce(file: string, error: unknown): void {
  if (reported.has(file)) return;
  reported.add(file);
  process.stderr.write(`lindwyrm: cannot write audit log ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
}
