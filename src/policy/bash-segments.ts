/**
 * A shell command cut into its simple commands ("segments"), for judging grants one segment at a
 * time. It reads quotes, escapes, comments and heredocs as bash does, so `echo "a; b"` is one
 * segment and `ls; rm x` two, and a heredoc's body is not read as commands. No evaluation: what
 * the shell would expand at run time (a substitution, a variable, a glob, `~`) or send elsewhere (a
 * redirection) is recorded as a blocker, and a segment with a blocker is never covered by a grant.
 * Anything it cannot read for certain (an unterminated quote) makes the whole command a problem.
 */
import { CONTROL } from './bash-words.js';

export interface CommandSegment {
  /** The segment as written, trimmed (for display). */
  readonly text: string;
  /** Its words as the program receives them: quotes and escapes removed; leading assignments left out. */
  readonly words: readonly string[];
  /** Why no grant may cover it (empty when nothing stands in the way). */
  readonly blockers: readonly string[];
}

export interface ParsedCommand {
  readonly segments: readonly CommandSegment[];
  /** Why nothing in the command can be judged (it cannot be read for certain); empty when it can. */
  readonly problems: readonly string[];
}

const SUBSTITUTION = 'a command substitution ($( … ) or ` … `)';
const VARIABLE = 'a variable expansion ($…)';
const GLOB = 'a glob pattern (* ? [ ]), which expands to names not shown';
const TILDE = 'a path in the home folder (~)';
const BRACES = 'braces ({ … }), a group or an expansion';
const HEREDOC = 'a heredoc (an inline script)';
const HERESTRING = 'a here-string (<<<)';
const INPUT = 'input redirection (<)';
const OUTPUT = 'output redirection (>), which writes a file';
const PROCESS_SUB = 'a process substitution (<( … ) or >( … ))';
const ASSIGNMENT = 'a variable set for the command (NAME=value)';
const ANSI_QUOTE = "ANSI-C quoting ($'…')";
const CONTROLS = 'control characters';

const NAME_START = /[A-Za-z_]/;
const ASSIGNMENT_WORD = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

class Reader {
  readonly segments: CommandSegment[] = [];
  readonly problems: string[] = [];
  private words: string[] = [];
  private blockers = new Set<string>();
  private start = 0;
  /** The word being read, unquoted text so far; null between words. */
  private word: string | null = null;
  /** The word as typed (quotes kept), for telling an assignment from a quoted `a=b`. */
  private raw = '';
  private redirect: 'out' | 'in' | 'dup' | 'heredoc' | undefined;
  private heredocs: { delimiter: string; tabs: boolean }[] = [];
  private heredocTabs = false;

  constructor(private readonly text: string) {}

  block(why: string): void {
    this.blockers.add(why);
  }

  append(chars: string, raw: string = chars): void {
    this.word = (this.word ?? '') + chars;
    this.raw += raw;
  }

  inWord(): boolean {
    return this.word !== null;
  }

  /** Before a redirection: `2>x` — unquoted digits right before it name the descriptor, not a word. */
  dropDescriptor(): void {
    if (this.word !== null && /^\d+$/.test(this.raw)) {
      this.word = null;
      this.raw = '';
    }
  }

  endWord(): void {
    if (this.word === null) return;
    const word = this.word;
    const raw = this.raw;
    this.word = null;
    this.raw = '';
    const redirect = this.redirect;
    if (redirect !== undefined) {
      this.redirect = undefined;
      if (redirect === 'heredoc') this.heredocs.push({ delimiter: word, tabs: this.heredocTabs });
      else if (redirect === 'dup') {
        if (!/^(\d+|-)$/.test(word)) this.block(OUTPUT);
      } else if (word !== '/dev/null') this.block(redirect === 'in' ? INPUT : OUTPUT);
      return;
    }
    if (this.words.length === 0 && ASSIGNMENT_WORD.test(raw)) {
      this.block(ASSIGNMENT);
      return;
    }
    this.words.push(word);
  }

  /** Ends the segment at `at`; the next one starts after the `width` characters of the operator. */
  endSegment(at: number, width = 1): void {
    this.endWord();
    if (this.redirect !== undefined) {
      this.problems.push('a redirection without a target');
      this.redirect = undefined;
    }
    const text = this.text.slice(this.start, at).trim();
    if (this.words.length > 0 || this.blockers.size > 0) {
      this.segments.push({ text, words: this.words, blockers: [...this.blockers] });
    }
    this.words = [];
    this.blockers = new Set();
    this.start = at + width;
  }

  setRedirect(kind: 'out' | 'in' | 'dup' | 'heredoc', tabs = false): void {
    this.endWord();
    if (kind === 'heredoc') this.heredocTabs = tabs;
    this.redirect = kind;
  }

  /** At a newline outside quotes: the bodies of heredocs started on this line are skipped. Returns where reading goes on. */
  skipHeredocBodies(from: number): number {
    let at = from;
    for (const { delimiter, tabs } of this.heredocs.splice(0)) {
      for (;;) {
        if (at >= this.text.length) {
          this.problems.push(`a heredoc that never ends (no line "${delimiter}")`);
          return this.text.length;
        }
        const end = this.text.indexOf('\n', at);
        const line = this.text.slice(at, end < 0 ? this.text.length : end);
        at = end < 0 ? this.text.length : end + 1;
        if ((tabs ? line.replace(/^\t+/, '') : line) === delimiter) break;
      }
    }
    return at;
  }

  finish(): ParsedCommand {
    if (this.heredocs.length > 0) this.problems.push('a heredoc that never ends');
    return { segments: this.segments, problems: this.problems };
  }
}

/** Index just past the `)` that closes a `(` opened before `from` (nesting and quotes counted), or -1. */

/** `<( … )` or `>( … )` at `i`: never covered by a grant; returns where the scan goes on. */
function processSubstitution(r: Reader, text: string, i: number, arrow: '<' | '>'): number {
  r.block(PROCESS_SUB);
  const end = closingParen(text, i + 2);
  if (end < 0) r.problems.push(`an unterminated ${arrow}( … )`);
  return end < 0 ? text.length : end - 1;
}

function closingParen(text: string, from: number): number {
  let depth = 1;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '\\') i++;
    else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Reads `$…` at `i` (outside single quotes); returns the index of the last character it used. */
function readDollar(r: Reader, text: string, i: number, quoted: boolean): number {
  const next = text[i + 1];
  if (next === '(') {
    r.block(SUBSTITUTION);
    const end = closingParen(text, i + 2);
    if (end < 0) {
      r.problems.push('an unterminated $( … )');
      return text.length;
    }
    r.append(text.slice(i, end));
    return end - 1;
  }
  if (next !== undefined && (NAME_START.test(next) || /[{0-9@*#?$!-]/.test(next))) {
    r.block(VARIABLE);
    r.append('$');
    return i;
  }
  if (!quoted && next === "'") {
    r.block(ANSI_QUOTE);
    let j = i + 2;
    for (; j < text.length && text[j] !== "'"; j++) if (text[j] === '\\') j++;
    if (j >= text.length) r.problems.push("an unterminated $'…'");
    r.append(text.slice(i + 2, j), text.slice(i, j + 1));
    return j;
  }
  r.append('$');
  return i;
}

/** Reads a double-quoted string opening at `i`; returns the index of its closing quote. */
function readDoubleQuoted(r: Reader, text: string, i: number): number {
  let value = '';
  let j = i + 1;
  for (; j < text.length; j++) {
    const c = text[j] as string;
    if (c === '"') break;
    if (c === '\\') {
      const n = text[j + 1];
      if (n === '\n') j++;
      else if (n === '$' || n === '`' || n === '"' || n === '\\') {
        value += n;
        j++;
      } else value += c;
    } else if (c === '`') {
      r.block(SUBSTITUTION);
      value += c;
    } else if (c === '$') {
      r.append(value);
      value = '';
      j = readDollar(r, text, j, true);
    } else value += c;
  }
  if (j >= text.length) r.problems.push('an unterminated double quote');
  r.append(value, `"${value}"`);
  // A quoted empty word is still a word.
  if (!r.inWord()) r.append('');
  return j;
}

/** Reads a redirection operator starting at `i` (its fd number, if any, already read as the word). */
function readRedirect(r: Reader, text: string, i: number): number {
  const c = text[i] as string;
  const rest = text.slice(i, i + 3);
  if (c === '<') {
    if (rest.startsWith('<<<')) {
      r.block(HERESTRING);
      r.setRedirect('in');
      return i + 2;
    }
    if (rest.startsWith('<<')) {
      r.block(HEREDOC);
      const tabs = text[i + 2] === '-';
      r.setRedirect('heredoc', tabs);
      return i + (tabs ? 2 : 1);
    }
    if (text[i + 1] === '(') return processSubstitution(r, text, i, '<');
    if (text[i + 1] === '&') {
      r.setRedirect('dup');
      return i + 1;
    }
    r.setRedirect(text[i + 1] === '>' ? 'out' : 'in');
    return text[i + 1] === '>' ? i + 1 : i;
  }
  // '>'
  if (text[i + 1] === '(') return processSubstitution(r, text, i, '>');
  if (text[i + 1] === '&') {
    r.setRedirect('dup');
    return i + 1;
  }
  r.setRedirect('out');
  return text[i + 1] === '>' || text[i + 1] === '|' ? i + 1 : i;
}

export function parseCommand(command: string): ParsedCommand {
  const text = command.replace(/\r\n/g, '\n');
  const r = new Reader(text);
  if (CONTROL.test(text)) r.problems.push(CONTROLS);
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    switch (c) {
      case ' ':
      case '\t':
        r.endWord();
        break;
      case '\n':
        r.endSegment(i);
        i = r.skipHeredocBodies(i + 1) - 1;
        break;
      case ';':
      case '(':
      case ')':
        r.endSegment(i);
        break;
      case '&':
        if (text[i + 1] === '>') {
          // &> and &>>: both outputs to a file.
          i = readRedirect(r, text, i + 1);
        } else {
          const double = text[i + 1] === '&';
          r.endSegment(i, double ? 2 : 1);
          if (double) i++;
        }
        break;
      case '|':
        if (text[i + 1] === '|' || text[i + 1] === '&') {
          r.endSegment(i, 2);
          i++;
        } else r.endSegment(i);
        break;
      case '<':
      case '>': {
        // `2>x`: the digits just read name the descriptor, not a word.
        r.dropDescriptor();
        i = readRedirect(r, text, i);
        break;
      }
      case '\\':
        if (text[i + 1] === '\n') i++;
        else if (i + 1 < text.length) {
          r.append(text[i + 1] as string, text.slice(i, i + 2));
          i++;
        } else r.append('\\');
        break;
      case "'": {
        const end = text.indexOf("'", i + 1);
        if (end < 0) {
          r.problems.push('an unterminated single quote');
          i = text.length;
          break;
        }
        r.append(text.slice(i + 1, end), text.slice(i, end + 1));
        i = end;
        break;
      }
      case '"':
        i = readDoubleQuoted(r, text, i);
        break;
      case '`': {
        r.block(SUBSTITUTION);
        let j = i + 1;
        for (; j < text.length && text[j] !== '`'; j++) if (text[j] === '\\') j++;
        if (j >= text.length) r.problems.push('an unterminated ` … `');
        r.append(text.slice(i, j + 1));
        i = j;
        break;
      }
      case '$':
        i = readDollar(r, text, i, false);
        break;
      case '#':
        if (!r.inWord()) {
          // A comment runs to the end of the line.
          const end = text.indexOf('\n', i);
          i = (end < 0 ? text.length : end) - 1;
        } else r.append(c);
        break;
      case '*':
      case '?':
      case '[':
        r.block(GLOB);
        r.append(c);
        break;
      case '{':
      case '}':
        r.block(BRACES);
        r.append(c);
        break;
      case '~': {
        const prev = text[i - 1];
        if (!r.inWord() || prev === '=' || prev === ':') r.block(TILDE);
        r.append(c);
        break;
      }
      default:
        r.append(c);
    }
  }
  r.endSegment(text.length);
  return r.finish();
}
