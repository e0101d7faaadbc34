/**
 * The many spellings of one command-line option, for the bash denylist: `rm -rf`, `rm -fr`,
 * `rm -r -f`, `rm -Rf` and `rm --recursive --force` all ask rm for the same thing.
 *
 * Each option word becomes a set of canonical tokens: a short cluster gives one `-x` per letter
 * (with a program's synonyms folded: rm's -R is -r), a long option gives the short letter it
 * stands for when the program is listed below, else itself (`--hard`). Unlisted programs still get
 * clusters split into letters; programs whose options are whole words after one dash (find's
 * -delete) compare option words literally.
 */

interface ProgramOptions {
  /** Short letters that are another name for one option: rm's -R is -r. */
  readonly synonyms?: Readonly<Record<string, string>>;
  /** Long option name → its short letter, or null when it has none. */
  readonly long: Readonly<Record<string, string | null>>;
  /**
   * `long` lists every long option the program takes, so an abbreviation (`--recur`) resolves the
   * way getopt resolves it: to the one option it starts, and to nothing when it starts several.
   */
  readonly complete: boolean;
}

const CHMOD_FAMILY: ProgramOptions = {
  complete: true,
  long: {
    recursive: 'R', verbose: 'v', changes: 'c', silent: 'f', quiet: 'f', reference: null,
    'preserve-root': null, 'no-preserve-root': null, dereference: null, 'no-dereference': 'h',
    from: null, help: null, version: null,
  },
};

const PROGRAMS: Readonly<Record<string, ProgramOptions>> = {
  rm: {
    complete: true,
    synonyms: { R: 'r' },
    long: {
      recursive: 'r', force: 'f', interactive: 'i', verbose: 'v', dir: 'd', 'one-file-system': null,
      'preserve-root': null, 'no-preserve-root': null, help: null, version: null,
    },
  },
  chmod: CHMOD_FAMILY,
  chown: CHMOD_FAMILY,
  chgrp: CHMOD_FAMILY,
  cp: { complete: false, synonyms: { R: 'r' }, long: { recursive: 'r', force: 'f', archive: 'a', interactive: 'i', 'no-clobber': 'n', verbose: 'v' } },
  mv: { complete: false, long: { force: 'f', interactive: 'i', 'no-clobber': 'n', verbose: 'v' } },
  ln: { complete: false, long: { symbolic: 's', force: 'f', verbose: 'v' } },
  shred: { complete: false, long: { force: 'f', remove: 'u', zero: 'z', verbose: 'v', exact: 'x', iterations: 'n' } },
  // push/clean/branch/tag/checkout/add all spell force -f; push/branch/tag spell delete -d.
  git: { complete: false, long: { force: 'f', delete: 'd' } },
  curl: { complete: false, long: { insecure: 'k', output: 'o', 'remote-name': 'O', location: 'L', 'upload-file': 'T', data: 'd' } },
};

/** Options are whole words after a single dash: `-delete` is not -d -e -l -t. */
const WORD_OPTION_PROGRAMS = new Set([
  'find', 'java', 'javac', 'gcc', 'g++', 'cc', 'clang', 'clang++', 'go', 'ffmpeg', 'ffprobe', 'openssl', 'terraform', 'xcodebuild',
]);

/** Shortest abbreviation of a long option accepted for a program whose option list is not known. */
const MIN_ABBREVIATION = 2;

export function isOptionWord(word: string): boolean {
  return word.length > 1 && word.startsWith('-') && word !== '--';
}

function longMeaning(table: ProgramOptions | undefined, name: string): string[] {
  if (table === undefined) return [`--${name}`];
  const exact = table.long[name];
  if (exact !== undefined) return [exact === null ? `--${name}` : `-${exact}`];
  if (!table.complete) return [`--${name}`];
  const candidates = Object.keys(table.long).filter((full) => full.startsWith(name));
  if (candidates.length !== 1) return [`--${name}`];
  const only = candidates[0] as string;
  const letter = table.long[only];
  return [letter === null || letter === undefined ? `--${only}` : `-${letter}`];
}

/**
 * The canonical tokens one option word stands for (`-Rf` → -r -f for rm, `--force` → -f).
 * Attached values end a cluster: in `-n5x` only the letters up to the first other character count.
 */
export function optionTokens(program: string, word: string): string[] {
  if (!isOptionWord(word)) return [];
  if (WORD_OPTION_PROGRAMS.has(program)) return [word];
  const table = PROGRAMS[program];
  if (word.startsWith('--')) return longMeaning(table, word.slice(2));
  const letters = /^-([A-Za-z0-9]+)/.exec(word)?.[1] ?? '';
  if (letters === '') return [word];
  return [...letters].map((c) => `-${table?.synonyms?.[c] ?? c}`);
}

/**
 * Whether a long option word the program was given may stand for `wanted` although its canonical
 * token differs: an abbreviation (`--forc`) of a long option of a program whose full list is not
 * known here. Erring towards a match is the right side for a denylist.
 */
export function abbreviationMeets(program: string, word: string, wanted: string): boolean {
  if (!word.startsWith('--') || WORD_OPTION_PROGRAMS.has(program)) return false;
  const table = PROGRAMS[program];
  if (table?.complete === true) return false;
  const typed = word.slice(2);
  if (typed.length < MIN_ABBREVIATION) return false;
  if (wanted.startsWith('--')) return wanted.slice(2).startsWith(typed);
  const letter = wanted.slice(1);
  return Object.entries(table?.long ?? {}).some(([full, short]) => short === letter && full.startsWith(typed));
}
