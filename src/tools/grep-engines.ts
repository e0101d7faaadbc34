/**
 * Two ways to search file contents with the same results and format: ripgrep when it is on PATH,
 * and an in-process walk when it is not.
 */
import { spawn } from 'node:child_process';
import { isAscii } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { findOnPath } from './find-on-path.js';
import { formatBytes, looksBinary } from './text-file.js';
import { VENDORED_DIRS, walkFiles } from './walk-files.js';
import { escapePath, fsPath } from '../io/byte-names.js';

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
    '--no-require-git', '--no-ignore-global', '--no-messages',
    // A minified bundle's one 20 MB line would be piped whole (15 s of re-splitting); a preview of
    // 2000 bytes is at least MAX_TEXT_CHARS characters, so the clipped text is the same.
    '--max-columns', '2000', '--max-columns-preview'];
  // The size cap keeps a tree walk from wading through dumps; a file named outright is searched.
  if (q.baseIsDir) args.push('--max-filesize', '20M');
  if (q.ignoreCase) args.push('--ignore-case');
  for (const dir of VENDORED_DIRS) args.push('--glob', `!${dir}/`);
  for (const ex of q.excluded) {
    // A glob, so the name is escaped: `private [old]` unescaped matches `private o`, not itself,
    // and the folder a rule denies would be searched.
    const rel = path.relative(q.base, ex).replace(/[\\*?[\]{}!]/g, '\\$&');
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
    let stderr = '';
    const onAbort = () => child.kill('SIGKILL');
    q.signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr += d));
    let rest: Buffer = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const text = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
      // A record is `path NUL line:text LF`. The path is cut at the NUL, not at a newline: a file
      // name may hold a newline (a cloned repo's can), and must not split into a false record.
      // Bytes, not text: a name that is not UTF-8 is shown in the escaped form that opens it.
      let pos = 0;
      for (;;) {
        const nul = text.indexOf(0, pos);
        const end = nul === -1 ? -1 : text.indexOf(0x0a, nul);
        if (end === -1) break;
        const colon = text.indexOf(0x3a, nul + 1);
        const file = escapePath(text.subarray(pos, nul));
        pos = end + 1;
        if (colon === -1 || colon > end) continue;
        hits.push({ file: q.baseIsDir ? file : '', line: Number(text.toString('latin1', nul + 1, colon)), text: clipText(text.toString('utf8', colon + 1, end)) });
        if (hits.length >= HARD_HIT_LIMIT) {
          truncated = true;
          child.kill('SIGKILL');
          break;
        }
      }
      rest = Buffer.from(text.subarray(pos));
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
  const literal = q.ignoreCase ? undefined : requiredLiteral(q.pattern);
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
    // A file named outright is never skipped silently: "no matches" would be a wrong answer.
    const size = statSync(fsPath(q.base)).size;
    if (size > MAX_FILE_BYTES) {
      return {
        hits: [],
        truncated: false,
        error: `the file is ${formatBytes(size)}, over the ${formatBytes(MAX_FILE_BYTES)} the built-in search reads; install ripgrep (rg) to search it, or read parts of it with read_file offset and limit`,
      };
    }
    files.push({ abs: q.base, rel: '' });
  }
  const hits: GrepHit[] = [];
  const global = new RegExp(regex.source, `${regex.flags}g`);
  let sliceStart = performance.now();
  for (const file of files) {
    if (q.signal?.aborted === true) break;
    // Synchronous reads are several times faster than the promise API for many small files;
    // yielding every few milliseconds keeps the event loop (and the screen) responsive.
    if (performance.now() - sliceStart > 15) {
      await new Promise((r) => setImmediate(r));
      sliceStart = performance.now();
    }
    let bytes: Buffer;
    try {
      if (statSync(fsPath(file.abs)).size > MAX_FILE_BYTES) continue;
      bytes = readFileSync(fsPath(file.abs));
    } catch {
      continue;
    }
    // A required literal absent from the raw bytes rules the file out before any decoding.
    if (literal !== undefined && bytes.indexOf(literal) === -1) continue;
    if (looksBinary(bytes)) continue;
    // ASCII decodes as latin1 far faster than as UTF-8, with the same result.
    const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    if (searchText(text, file.rel, regex, global, hits)) return { hits, truncated: true };
  }
  return { hits, truncated: false };
}

/** Finds matching lines without splitting the whole file; returns true at the hard limit. */
function searchText(text: string, rel: string, line: RegExp, global: RegExp, hits: GrepHit[]): boolean {
  let pos = 0;
  let lineNo = 1;
  let counted = 0;
  while (pos <= text.length) {
    global.lastIndex = pos;
    const m = global.exec(text);
    if (m === null) return false;
    const start = text.lastIndexOf('\n', m.index - 1) + 1;
    let end = text.indexOf('\n', m.index);
    if (end === -1) end = text.length;
    // A whole-text match may span lines (\s matches a newline); only a line matching alone counts.
    const candidate = text.slice(start, end);
    if (start < text.length && line.test(candidate)) {
      for (let i = text.indexOf('\n', counted); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) lineNo++;
      counted = start;
      hits.push({ file: rel, line: lineNo, text: clipText(candidate) });
      if (hits.length >= HARD_HIT_LIMIT) return true;
    }
    pos = end + 1;
  }
  return false;
}

/**
 * The longest run of plain characters every match must contain, or undefined when that is not
 * certain (alternation, character classes and quantified characters are never included).
 */
export function requiredLiteral(pattern: string): Buffer | undefined {
  if (pattern.includes('|')) return undefined;
  let best = '';
  let run = '';
  let depth = 0;
  const close = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    const next = pattern[i + 1];
    const quantified = (n: string | undefined) => n === '?' || n === '*' || n === '{';
    if (c === '\\') {
      const e = next ?? '';
      i++;
      if (depth === 0 && /[.*+?^${}()|[\]\\/-]/.test(e) && !quantified(pattern[i + 1])) {
        run += e;
        if (pattern[i + 1] === '+') close();
      } else close();
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    if (depth > 0 || /[.*+?^${}()[\]]/.test(c)) {
      close();
      if (c === '{') {
        while (i < pattern.length && pattern[i] !== '}') i++;
      }
      if (c === '[') {
        // skip the class body
        while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      }
      continue;
    }
    if (quantified(next)) {
      close();
      continue;
    }
    run += c;
    if (next === '+') close();
  }
  close();
  return best.length >= 3 ? Buffer.from(best, 'utf8') : undefined;
}
