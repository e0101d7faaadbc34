/**
 * The prompts typed in a project, kept across runs for ↑/↓ and Ctrl+R: one JSON-lines file per
 * project under the data dir (0600, in a 0700 folder), capped, with secrets redacted before
 * anything is written. A run, a resumed run (-c / --resume) included, starts with the project's
 * history; a failure to read or write it costs the history, never the session.
 */
import { createHash } from 'node:crypto';
import { appendFile, chmod, mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterRequestLeaves } from '../io/request-gate.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { redactText, secretMatcher, REDACTED } from '../secrets/redact.js';

/** Entries kept (older ones are dropped when the file is compacted). */
export const HISTORY_MAX_ENTRIES = 1000;
/** A prompt longer than this (a big paste) is kept for this run only, not written. */
export const HISTORY_MAX_ENTRY_CHARS = 64 * 1024;

/**
 * Shapes of well-known tokens, redacted even when they are not this run's own keys (a key pasted
 * into a prompt is still a key).
 */
const TOKEN_SHAPES = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
];

export interface PromptHistory {
  /** Oldest first. */
  readonly entries: readonly string[];
  add(text: string): Promise<void>;
  /** Where it is kept (for tests and --verbose). */
  readonly file: string;
}

export interface PromptHistoryOptions {
  readonly dataDir: string;
  readonly projectRoot: string;
  /** Asked at every write: the run's secret values (keys, proxy credentials). */
  readonly secrets: () => readonly string[];
  readonly maxEntries?: number;
  readonly log?: (line: string) => void;
}

export function redactPrompt(text: string, secrets: readonly string[]): string {
  let out = redactText(text, secretMatcher(secrets)).text;
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
  return out;
}

async function historyFile(dataDir: string, projectRoot: string): Promise<string> {
  // The real path: the project opened through a symlink is the same project.
  const root = await realpath(projectRoot).catch(() => projectRoot);
  const id = createHash('sha256').update(root).digest('hex').slice(0, 20);
  return join(dataDir, 'history', `${id}.jsonl`);
}

function parse(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'string' && value !== '') out.push(value);
    } catch {
      // A torn last line (a crash mid-append) costs that entry only.
    }
  }
  return out;
}

export async function openPromptHistory(opts: PromptHistoryOptions): Promise<PromptHistory> {
  const max = opts.maxEntries ?? HISTORY_MAX_ENTRIES;
  const file = await historyFile(opts.dataDir, opts.projectRoot);
  const dir = join(file, '..');
  let entries: string[] = [];
  try {
    entries = parse(await readFile(file, 'utf8')).slice(-max);
    // A file made readable by others (a copy, an umask) is put back to the owner only.
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') opts.log?.(`prompt history not read (${file}): ${(e as Error).message}`);
  }
  let lines = entries.length;
  let writing = Promise.resolve();
  const write = async (text: string, entry: string): Promise<void> => {
    if (text.length > HISTORY_MAX_ENTRY_CHARS) return;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    lines += 1;
    if (lines > max * 2) {
      // Compacted now and then rather than on every prompt: an append is all a prompt costs.
      await writeFileAtomic(file, entries.filter((e) => e.length <= HISTORY_MAX_ENTRY_CHARS).map((e) => `${JSON.stringify(e)}\n`).join(''));
      lines = entries.length;
    } else {
      await appendFile(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    }
  };
  return {
    get entries() {
      return entries;
    },
    file,
    add(text) {
      if (text.trim() === '' || entries.at(-1) === text) return writing;
      // Recalled at once (↑ right after Enter); written once the prompt's request has left.
      const entry = redactPrompt(text, opts.secrets());
      entries = [...entries, entry].slice(-max);
      const written = (): Promise<void> => new Promise<void>((resolve) => afterRequestLeaves(resolve)).then(() => write(text, entry));
      writing = writing.then(written, written).catch((e: unknown) => opts.log?.(`prompt history not saved (${file}): ${(e as Error).message}`));
      return writing;
    },
  };
}
