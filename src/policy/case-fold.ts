/**
 * Case-insensitive file systems (macOS APFS and HFS+ by default, Windows NTFS): there `.ENV` is
 * `.env` and `SECRETS/key` is `secrets/key`, so a path rule compared letter for letter could be
 * dodged by typing another case. Whether a project's file system folds case is probed once per
 * root, without writing anything, and path comparisons fold case when it does.
 */
import { lstatSync, opendirSync, readdirSync, type BigIntStats } from 'node:fs';
import path from 'node:path';

/** Answers whether the file system holding `root` (a real, absolute path) ignores case. */
export type CaseProbe = (root: string) => boolean;

/** How many folder entries the probe looks at before falling back to the root's own name. */
const PROBE_ENTRIES = 64;

/**
 * The spelling of `name` to look up for the probe: its ASCII letters in the other case, or
 * undefined when it has none. Only ASCII: every case-insensitive file system folds it, while what
 * else folds depends on the file system's Unicode tables (APFS, HFS+ and NTFS each froze their
 * own), so a cloned tree could lead with a name whose JavaScript case pair the disk does not
 * fold (Ꟁ, added in Unicode 14) and make a case-insensitive disk look case-sensitive.
 */
export function probeSpelling(name: string): string | undefined {
  const flipped = name.replace(/[A-Za-z]/g, (c) => (c <= 'Z' ? c.toLowerCase() : c.toUpperCase()));
  return flipped === name ? undefined : flipped;
}

function statOf(p: string): BigIntStats | undefined {
  try {
    return lstatSync(p, { bigint: true });
  } catch {
    return undefined; // nothing there: the caller probes the next spelling
  }
}

/**
 * True when both spellings are one file, false when the other spelling is absent or another file,
 * undefined when the entry tells nothing (it vanished, or it is a file with hard links, which a
 * cloned tree could pair up to fake an answer).
 */
function sameEntry(real: string, flipped: string): boolean | undefined {
  const a = statOf(real);
  if (a === undefined || (!a.isDirectory() && a.nlink > 1n)) return undefined;
  const b = statOf(flipped);
  return b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/**
 * The real probe. An entry inside the root comes first, since it lives on the file system the
 * project's files live on (the root may be a mount point); then the root's own components,
 * deepest first. Nothing is created. With no name to try, the platform's default is assumed.
 */
export function probeCaseInsensitive(root: string): boolean {
  try {
    const dir = opendirSync(root);
    try {
      for (let i = 0; i < PROBE_ENTRIES; i++) {
        const entry = dir.readSync();
        if (entry === null) break;
        const flipped = probeSpelling(entry.name);
        if (flipped === undefined) continue;
        const answer = sameEntry(path.join(root, entry.name), path.join(root, flipped));
        if (answer !== undefined) return answer;
      }
    } finally {
      dir.closeSync();
    }
  } catch {
    // An unreadable or missing root: its own name may still answer.
  }
  for (let at = root; path.dirname(at) !== at; at = path.dirname(at)) {
    const flipped = probeSpelling(path.basename(at));
    if (flipped === undefined) continue;
    const answer = sameEntry(at, path.join(path.dirname(at), flipped));
    if (answer !== undefined) return answer;
  }
  return process.platform === 'darwin' || process.platform === 'win32';
}

let probe: CaseProbe = probeCaseInsensitive;
const answers = new Map<string, boolean>();

/** Replaces the probe (tests: exercise the folding on any file system); undefined restores it. */
export function setCaseProbe(replacement?: CaseProbe): void {
  probe = replacement ?? probeCaseInsensitive;
  answers.clear();
}

/** Cached per root: a probe is two lstat calls, but paths are judged on every tool call. */
export function isCaseInsensitive(root: string): boolean {
  let answer = answers.get(root);
  if (answer === undefined) {
    answer = probe(root);
    answers.set(root, answer);
  }
  return answer;
}

/**
 * Whether the file system holding `target` (absolute, real; it need not exist) ignores case:
 * asked of its nearest existing folder. For a path outside the project, which may live on
 * another file system than the project (a case-sensitive volume for code, the home folder on the
 * default case-insensitive one), so that `~/.SSH/id_rsa` still meets a `~/.ssh` rule.
 */
export function isCaseInsensitiveAt(target: string): boolean {
  for (let at = target; ; at = path.dirname(at)) {
    if (statOf(at)?.isDirectory() === true || path.dirname(at) === at) return isCaseInsensitive(at);
  }
}

/**
 * The comparison key of a path on a case-insensitive file system (which also ignores NFC/NFD).
 * Upper case first, then lower: lower case alone keeps ſ, ς and ß apart from s, σ and ss, while
 * the disks fold them together (APFS and NTFS ſ and ς, Linux casefold folders ß too), so
 * `ſecrets/key` would dodge a `secrets` rule. Folding more than a disk does only makes a rule
 * cover a few more names.
 */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/**
 * The comparison key of a name on a file system that keeps case: NFC, so `café` typed composed
 * meets `cafe\u0301` (decomposed). Linux keeps both spellings as two names, but a rule written in
 * one must cover the other: the two look the same in every prompt, listing and editor.
 */
export function normalizeName(text: string): string {
  return text.normalize('NFC');
}

function sameComponents(a: readonly string[], b: readonly string[], fold: boolean): boolean {
  return a.every((part, i) => (fold ? foldCase(part) === foldCase(b[i] as string) : normalizeName(part) === normalizeName(b[i] as string)));
}

/** `child` is `parent` or below it; component by component, folded when `fold`, NFC either way. */
export function isWithinFolded(child: string, parent: string, fold: boolean): boolean {
  const c = child.split(path.sep).filter((p) => p !== '');
  const p = parent.split(path.sep).filter((part) => part !== '');
  return c.length >= p.length && sameComponents(p, c.slice(0, p.length), fold);
}

/**
 * `target` spelled with the root's own case where it lies within `root` (`/Users/me/Proj/x`
 * typed as `/users/me/proj/x`), so project-relative names and prefixes work; else unchanged.
 */
export function withRootSpelling(target: string, root: string): string {
  const t = target.split(path.sep).filter((p) => p !== '');
  const r = root.split(path.sep).filter((p) => p !== '');
  if (t.length < r.length || !sameComponents(r, t.slice(0, r.length), true)) return target;
  return path.join(root, ...t.slice(r.length));
}

/**
 * The on-disk spelling of `target` below `base` (both absolute), looked up folder by folder; the
 * part that does not exist is kept as written. Exclusion lists compare exact names, so a rule
 * typed `Secrets` must name the `secrets` folder that is really there.
 */
export function onDiskSpelling(target: string, base: string): string {
  const rest = path.relative(base, target).split(path.sep).filter((p) => p !== '');
  let current = base;
  for (let i = 0; i < rest.length; i++) {
    const wanted = rest[i] as string;
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      return path.join(current, ...rest.slice(i));
    }
    const found = names.includes(wanted) ? wanted : names.find((n) => foldCase(n) === foldCase(wanted));
    if (found === undefined) return path.join(current, ...rest.slice(i));
    current = path.join(current, found);
  }
  return current;
}

/**
 * Every on-disk spelling of `target` below `base` whose names match it, folded when `fold` and
 * NFC/NFD-equal either way: a disk that keeps both can hold `café` composed and decomposed as two
 * folders, and a rule written in one spelling must leave out both. The part that does not exist
 * is kept as written.
 */
export function onDiskSpellings(target: string, base: string, fold: boolean): string[] {
  const key = (name: string): string => (fold ? foldCase(name) : normalizeName(name));
  const spell = (dir: string, parts: readonly string[]): string[] => {
    const [wanted, ...rest] = parts;
    if (wanted === undefined) return [dir];
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [path.join(dir, ...parts)];
    }
    const found = names.filter((n) => n === wanted || key(n) === key(wanted));
    if (found.length === 0) return [path.join(dir, ...parts)];
    return found.flatMap((n) => spell(path.join(dir, n), rest));
  };
  return spell(base, path.relative(base, target).split(path.sep).filter((p) => p !== ''));
}
