/**
 * A backstop behind the mount masks: the contents of read-denied files are cut out of what a
 * command prints. The sandbox hides the file itself, but not its copy in git's object store
 * (`git show HEAD:.env`), and an unsandboxed command sees everything. Each line of such a file
 * (and the value of a KEY=value line) is replaced wherever it shows up, whether it came from
 * the file, the index or HEAD. Encodings (base64, hex) get past it; the masks are the protection.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/types.js';
import { configEnv } from '../policy/git-env.js';
import { absent, noEntries } from '../diagnostics/ignore-error.js';

export const REDACTED_MARK = '[content of a read-denied file]';
/** Shorter fragments would match ordinary text. */
const MIN_FRAGMENT = 8;
const MAX_FILE_BYTES = 256 * 1024;
const MAX_FILES = 200;

async function filesUnder(p: string, into: string[]): Promise<void> {
  if (into.length >= MAX_FILES) return;
  const st = await stat(p).catch(absent);
  if (st?.isFile()) {
    if (st.size <= MAX_FILE_BYTES) into.push(p);
    return;
  }
  if (!st?.isDirectory()) return;
  for (const entry of await readdir(p).catch(noEntries)) await filesUnder(path.join(p, entry), into);
}

/** The index's and HEAD's copies of files inside the project, in one `git cat-file --batch`. */
function gitCopies(projectRoot: string, files: readonly string[]): Promise<string> {
  const inside = files.filter((f) => f.startsWith(projectRoot + path.sep)).map((f) => path.relative(projectRoot, f));
  if (inside.length === 0) return Promise.resolve('');
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      ['cat-file', '--batch'],
      // Nothing from the repository's own config may run here (textconv, fsmonitor …).
      { cwd: projectRoot, timeout: 5000, maxBuffer: 8 * 1024 * 1024, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', ...configEnv([['core.fsmonitor', 'false']]) } },
      (_error, stdout) => resolve(typeof stdout === 'string' ? stdout : ''),
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(inside.flatMap((rel) => [`HEAD:${rel}`, `:${rel}`]).join('\n') + '\n');
  });
}

function fragmentsOf(text: string, into: Set<string>): void {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length < MIN_FRAGMENT) continue;
    into.add(line);
    const value = /^[^=:\s]+\s*[=:]\s*(.+)$/.exec(line)?.[1]?.trim().replace(/^(["'])(.*)\1[,;]?$/, '$2');
    if (value !== undefined && value.length >= MIN_FRAGMENT) into.add(value);
  }
}

export type Redactor = (text: string) => string;

export const NO_REDACTION: Redactor = (text) => text;

export async function deniedContentRedactor(config: Config): Promise<Redactor> {
  const denied = new Set<string>();
  for (const rules of [config.policy.rules, config.policyFloor?.rules ?? []]) {
    for (const rule of rules) if (rule.read === 'deny') denied.add(rule.path);
  }
  if (denied.size === 0) return NO_REDACTION;
  const files: string[] = [];
  for (const p of denied) await filesUnder(p, files);
  const fragments = new Set<string>();
  for (const file of files) fragmentsOf((await readFile(file, 'utf8').catch(absent)) ?? '', fragments);
  // git's batch output interleaves headers ("<sha> blob <size>", "... missing") with contents.
  fragmentsOf(await gitCopies(config.projectRoot, files), fragments);
  for (const f of fragments) if (/^[0-9a-f]{40,64} blob \d+$/.test(f) || / missing$/.test(f)) fragments.delete(f);
  if (fragments.size === 0) return NO_REDACTION;
  const ordered = [...fragments].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const f of ordered) if (out.includes(f)) out = out.split(f).join(REDACTED_MARK);
    return out;
  };
}
