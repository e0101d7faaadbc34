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

function inOrder(wanted: readonly string[], have: readonly string[]): boolean {
  let at = 0;
  for (const word of have) if (at < wanted.length && word === wanted[at]) at++;
  return at === wanted.length;
}

function carriesOptions(program: string, wanted: readonly string[], given: readonly string[]): boolean {
  const tokens = new Set(given.flatMap((word) => optionTokens(program, word)));
  const longWords = given.filter((word) => word.startsWith('--'));
  return wanted.every((token) => tokens.has(token) || longWords.some((word) => abbreviationMeets(program, word, token)));
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

export function invocationMatches(command: string, entry: DenylistEntry): boolean {
  for (const part of simpleCommands(command)) {
    const words = denylistWords(part);
    for (let i = 0; i < words.length; i++) {
      if ((words[i] as string).toLowerCase() !== entry.program) continue;
      const { options, operands } = splitArguments(words.slice(i + 1));
      if (inOrder(entry.operands, operands) && carriesOptions(entry.program, entry.options, options)) return true;
    }
  }
  return false;
}
