/**
 * Two ways to search file contents with the same results and format: ripgrep when it is on PATH,
 * and an in-process walk when it is not.
 */
import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { findOnPath } from './find-on-path.js';
import { looksBinary } from './text-file.js';
import { VENDORED_DIRS, walkFiles } from './walk-files.js';

export interface GrepQuery {
  readonly root: string;
  /** Real absolute file or folder. */
  readonly base: string;
  readonly baseIsDir: boolean;
  readonly pattern: string;
  readonly glob?: string;
  readonly ignoreCase: boolean;
  readonly excluded: readonly string[];
  readonly signal?: AbortSignal;
}

export interface GrepHit {
  /** Relative to the base folder ('' for a file base). */
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

export interface GrepOutcome {
  readonly hits: GrepHit[];
  /** True when the hard limit stopped the search early. */
  readonly truncated: boolean;
  readonly error?: string;
}

/** Past this many hits the search stops: nobody reads them, and memory stays bounded. */
export const HARD_HIT_LIMIT = 20_000;
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_TEXT_CHARS = 500;

export function clipText(text: string): string {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  return t.length > MAX_TEXT_CHARS ? `${t.slice(0, MAX_TEXT_CHARS)}…` : t;
}

export async function ripgrepPath(): Promise<string | undefined> {
  return findOnPath('rg');
}

export function grepWithRipgrep(rg: string, q: GrepQuery): Promise<GrepOutcome> {
  const args = ['--no-config', '--no-heading', '--with-filename', '--line-number', '--color', 'never', '--null', '--hidden',
    '--no-require-git', '--no-ignore-global', '--no-messages', '--max-filesize', '20M'];
  if (q.ignoreCase) args.push('--ignore-case');
  for (const dir of VENDORED_DIRS) args.push('--glob', `!${dir}/`);
  for (const ex of q.excluded) {
    const rel = path.relative(q.base, ex);
    args.push('--glob', `!/${rel}`, '--glob', `!/${rel}/**`);
  }
  if (q.glob !== undefined) args.push('--glob', q.glob);
  args.push('--regexp', q.pattern);
  const cwd = q.baseIsDir ? q.base : path.dirname(q.base);
  if (!q.baseIsDir) args.push('--', path.basename(q.base));
  return new Promise((resolve) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const hits: GrepHit[] = [];
    let truncated = false;
    let rest = '';
    let stderr = '';
    const onAbort = () => child.kill('SIGKILL');
    q.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr += d));
    child.stdout.on('data', (chunk: string) => {
      if (truncated) return;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const nul = line.indexOf('\0');
        const colon = line.indexOf(':', nul + 1);
        if (nul === -1 || colon === -1) continue;
        hits.push({ file: q.baseIsDir ? line.slice(0, nul) : '', line: Number(line.slice(nul + 1, colon)), text: clipText(line.slice(colon + 1)) });
        if (hits.length >= HARD_HIT_LIMIT) {
          truncated = true;
          child.kill('SIGKILL');
          break;
        }
      }
    });
    child.on('error', (error) => resolve({ hits, truncated, error: `could not run ripgrep: ${error.message}` }));
    child.on('close', (code) => {
      q.signal?.removeEventListener('abort', onAbort);
      // 0: matches, 1: none, 2: an error (a bad regex, most often).
      if (code === 2 && hits.length === 0) resolve({ hits, truncated, error: stderr.trim() || 'ripgrep failed' });
      else resolve({ hits, truncated });
    });
  });
}

export function compilePattern(pattern: string, ignoreCase: boolean): RegExp | string {
  const flags = ignoreCase ? 'mi' : 'm';
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}

export async function grepInProcess(q: GrepQuery): Promise<GrepOutcome> {
  const regex = compilePattern(q.pattern, q.ignoreCase);
  if (typeof regex === 'string') return { hits: [], truncated: false, error: `invalid regular expression: ${regex}` };
  const globMatch = q.glob === undefined ? undefined : picomatch(q.glob, { dot: true, basename: !q.glob.includes('/') });
  const files: Array<{ abs: string; rel: string }> = [];
  if (q.baseIsDir) {
    await walkFiles({
      root: q.root,
      base: q.base,
      excluded: q.excluded,
      signal: q.signal,
      onFile: (abs, rel) => {
        if (globMatch === undefined || globMatch(rel)) files.push({ abs, rel });
      },
    });
  } else {
    files.push({ abs: q.base, rel: '' });
  }
  const hits: GrepHit[] = [];
  let truncated = false;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length && !truncated && q.signal?.aborted !== true) {
      const file = files[next++] as { abs: string; rel: string };
      const size = await stat(file.abs).then((s) => s.size, () => -1);
      if (size < 0 || size > MAX_FILE_BYTES) continue;
      const bytes = await readFile(file.abs).catch(() => undefined);
      if (bytes === undefined || looksBinary(bytes)) continue;
      const text = bytes.toString('utf8');
      if (!regex.test(text)) continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] as string;
        if (i === lines.length - 1 && line === '') break;
        if (regex.test(line)) {
          hits.push({ file: file.rel, line: i + 1, text: clipText(line) });
          if (hits.length >= HARD_HIT_LIMIT) {
            truncated = true;
            return;
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { hits, truncated };
}
