/**
 * The bash denylist, matched per program invocation. An entry is a program, then operands and
 * options: `rm -rf /` denies any invocation of rm, anywhere in the command (after sudo, env, xargs,
 * find -exec, inside sh -c or a quoted argument), that carries all of the entry's options in any
 * order, grouping or spelling (`-fr`, `-r -f`, `-Rf`, `--recursive --force`, before or after the
 * operands) and all of its operands in the same order among its own.
 *
 * Deliberately generous: an invocation runs from the program word to the end of its simple
 * command, and separators inside quotes do not end it, so `echo "rm -r; x -f"` is denied as well.
 * The denylist is a backstop; when unsure it denies.
 */
import { denylistWords } from './bash-words.js';
import { abbreviationMeets, isOptionWord, optionTokens } from './option-spelling.js';

/** Characters that end a simple command when they are not quoted. */
const SEPARATORS = new Set([';', '&', '|', '(', ')', '`', '\n', '\r']);

/**
 * The command's simple commands, as raw text. Quote-aware only so that a separator inside quotes
 * keeps the invocation going (a longer invocation can only match more).
 */
export function simpleCommands(command: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote === undefined && SEPARATORS.has(c)) {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
    if (c === '\\' && quote !== "'") {
      current += command[i + 1] ?? '';
      i++;
    } else if (c === quote) {
      quote = undefined;
    } else if (quote === undefined && (c === '"' || c === "'")) {
      quote = c;
    }
  }
  parts.push(current);
  return parts.filter((p) => p.trim() !== '');
}

interface Invocation {
  readonly options: readonly string[];
  readonly operands: readonly string[];
}

/** Options are recognised anywhere (GNU tools permute them) until `--`. */
function splitArguments(args: readonly string[]): Invocation {
  const options: string[] = [];
  const operands: string[] = [];
  let ended = false;
  for (const arg of args) {
    if (!ended && arg === '--') ended = true;
    else if (!ended && isOptionWord(arg)) options.push(arg);
    else operands.push(arg);
  }
  return { options, operands };
}

/** Which of the entry's option tokens one option word the program was given stands for. */
function tokensMet(program: string, wanted: readonly string[], word: string): string[] {
  const tokens = new Set(optionTokens(program, word));
  return wanted.filter((token) => tokens.has(token) || abbreviationMeets(program, word, token));
}

export interface DenylistEntry {
  readonly text: string;
  /** Lower-cased: on macOS and Windows `CURL` runs curl. */
  readonly program: string;
  readonly operands: readonly string[];
  /** Canonical option tokens, all required. */
  readonly options: readonly string[];
}

/** Undefined for an entry that has no program word to anchor on (`-rf` alone). */
export function parseEntry(text: string): DenylistEntry | undefined {
  const words = denylistWords(text);
  const first = words[0];
  if (first === undefined || isOptionWord(first)) return undefined;
  const program = first.toLowerCase();
  const { options, operands } = splitArguments(words.slice(1));
  return { text, program, operands, options: [...new Set(options.flatMap((word) => optionTokens(program, word)))] };
}

/**
 * Whether some invocation of the entry's program among `words` carries its options and operands.
 * Each occurrence of the program starts an invocation running to the end of the words, and a
 * command the model writes can hold thousands of them: judging each one's arguments afresh is
 * quadratic (a 100 kB command took half a minute, on every bash call). So the words are read
 * once, from the end, keeping what the invocation starting at each word would hold: the entry's
 * options seen before the first `--` after it, and how many of the entry's operands, taken from
 * the last one back, its operands hold in order. (Matching a subsequence from its end finds it
 * whenever it is there, as matching from its start does.)
 */
function wordsMatch(words: readonly string[], entry: DenylistEntry): boolean {
  const wanted = entry.operands;
  const need = wanted.length;
  // Operands matched, from the end of the entry's, by all words from `at` on (everything after a
  // `--` is an operand, a later `--` included).
  let matchedAll = 0;
  // The same for the invocation starting at `at`: its operands before the first `--` after it, then all words after that `--`.
  let matched = 0;
  let options = new Set<string>();
  const last = words[words.length - 1];
  if (need === 0 && entry.options.length === 0 && last?.toLowerCase() === entry.program) return true;
  for (let at = words.length - 1; at >= 1; at--) {
    const word = words[at] as string;
    if (word === '--') {
      matched = matchedAll;
      options = new Set();
    } else if (isOptionWord(word)) {
      for (const token of tokensMet(entry.program, entry.options, word)) options.add(token);
    } else if (matched < need && word === wanted[need - 1 - matched]) {
      matched++;
    }
    if (matchedAll < need && word === wanted[need - 1 - matchedAll]) matchedAll++;
    const program = words[at - 1] as string;
    if (matched === need && options.size === entry.options.length && program.toLowerCase() === entry.program) return true;
  }
  return false;
}

export function invocationMatches(command: string, entry: DenylistEntry): boolean {
  return simpleCommands(command).some((part) => wordsMatch(denylistWords(part), entry));
}
