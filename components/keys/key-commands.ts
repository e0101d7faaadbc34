/**
 * Named key commands: every key press is turned into one of these before anyone handles it, so
 * bindings live in one table and handlers speak in intentions, not escape sequences.
 */
import type { Key } from 'ink';

export type KeyCommand =
  | { readonly name: 'interrupt' }
  | { readonly name: 'eof' }
  | { readonly name: 'submit' }
  | { readonly name: 'newline' }
  | { readonly name: 'up' }
  | { readonly name: 'down' }
  | { readonly name: 'left' }
  | { readonly name: 'right' }
  | { readonly name: 'backspace' }
  | { readonly name: 'complete' }
  | { readonly name: 'escape' }
  | { readonly name: 'scrollUp' }
  | { readonly name: 'scrollDown' }
  | { readonly name: 'pageUp' }
  | { readonly name: 'pageDown' }
  | { readonly name: 'scrollTop' }
  | { readonly name: 'scrollBottom' }
  | { readonly name: 'toggleReasoning' }
  | { readonly name: 'lineStart' }
  | { readonly name: 'lineEnd' }
  | { readonly name: 'killToStart' }
  | { readonly name: 'killToEnd' }
  | { readonly name: 'killWord' }
  | { readonly name: 'killWordBack' }
  | { readonly name: 'killWordForward' }
  | { readonly name: 'wordLeft' }
  | { readonly name: 'wordRight' }
  | { readonly name: 'deleteForward' }
  | { readonly name: 'yank' }
  | { readonly name: 'undo' }
  | { readonly name: 'completeBack' }
  | { readonly name: 'reverseSearch' }
  | { readonly name: 'openEditor' }
  | { readonly name: 'suspend' }
  | { readonly name: 'redraw' }
  | { readonly name: 'expandPaste' }
  | { readonly name: 'text'; readonly text: string }
  /** A whole bracketed paste, however long: one command, so it costs one render. */
  | { readonly name: 'paste'; readonly text: string }
  | { readonly name: 'none' };

export type KeyCommandName = KeyCommand['name'];

const CTRL: Record<string, KeyCommandName> = {
  c: 'interrupt',
  d: 'eof',
  o: 'toggleReasoning',
  a: 'lineStart',
  e: 'lineEnd',
  u: 'killToStart',
  k: 'killToEnd',
  w: 'killWord',
  j: 'newline',
  y: 'yank',
  r: 'reverseSearch',
  g: 'openEditor',
  z: 'suspend',
  l: 'redraw',
  x: 'expandPaste',
};

/** Alt+letter (ESC then the letter), as readline binds them. */
const ALT: Record<string, KeyCommandName> = {
  b: 'wordLeft',
  f: 'wordRight',
  d: 'killWordForward',
};

/** Ctrl+_ (and Ctrl+/ on most terminals) arrives as 0x1f. */
const UNDO = '\x1f';

/**
 * Sequences Ink names alike but a shell tells apart: the Delete key and Backspace (0x7f) are both
 * "delete" to Ink, Alt+Backspace is "delete" with meta. Looked up on the raw sequence first.
 */
const RAW: Record<string, KeyCommandName> = {
  '\x1b[3~': 'deleteForward',
  '\x1b[3;2~': 'deleteForward',
  '\x1b\x7f': 'killWordBack',
  '\x1b\b': 'killWordBack',
  '\x1bOd': 'wordLeft',
  '\x1bOc': 'wordRight',
};

/** The command for a raw sequence Ink does not tell apart, if it is one. */
export function rawKeyCommand(sequence: string): KeyCommand | undefined {
  const named = RAW[sequence];
  return named ? ({ name: named } as KeyCommand) : undefined;
}

export function toKeyCommand(input: string, key: Key): KeyCommand {
  // Ctrl+J arrives as a bare line feed; a paste arrives as one multi-character input.
  if (input === '\n') return { name: 'newline' };
  if (key.return) return { name: key.meta ? 'newline' : 'submit' };
  if (input === UNDO) return { name: 'undo' };
  if ((key.ctrl || key.meta) && (key.leftArrow || key.rightArrow)) return { name: key.leftArrow ? 'wordLeft' : 'wordRight' };
  if (key.meta && (key.backspace || key.delete)) return { name: 'killWordBack' };
  if (key.meta && !key.ctrl && !key.escape && input.length === 1) {
    const named = ALT[input.toLowerCase()];
    // An Alt key the input has no use for is not typed as its letter.
    return named ? ({ name: named } as KeyCommand) : { name: 'none' };
  }
  if (key.ctrl && !key.meta) {
    const named = CTRL[input];
    if (named) return { name: named } as KeyCommand;
    if (key.home) return { name: 'scrollTop' };
    if (key.end) return { name: 'scrollBottom' };
    return { name: 'none' };
  }
  if (key.upArrow) return { name: key.shift ? 'scrollUp' : 'up' };
  if (key.downArrow) return { name: key.shift ? 'scrollDown' : 'down' };
  if (key.leftArrow) return { name: 'left' };
  if (key.rightArrow) return { name: 'right' };
  if (key.pageUp) return { name: 'pageUp' };
  if (key.pageDown) return { name: 'pageDown' };
  // Home / End move in the line; Ctrl+Home / Ctrl+End (above) move the transcript.
  if (key.home) return { name: 'lineStart' };
  if (key.end) return { name: 'lineEnd' };
  if (key.tab) return { name: key.shift ? 'completeBack' : 'complete' };
  // Ink 6 reports the usual Backspace byte (0x7f) as "delete"; both erase to the left.
  if (key.backspace || key.delete) return { name: 'backspace' };
  if (key.escape) return { name: 'escape' };
  if (input === '') return { name: 'none' };
  return { name: 'text', text: input.replace(/\r\n?/g, '\n') };
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * Ink hands over a run of plain bytes as one input: typed-ahead keys ("fix it" + Enter), or a
 * paste. Split it into commands. A CR or LF at the very end is Enter; one with text after it is
 * part of a pasted block and becomes a newline, so pasting several lines does not send them.
 */
export function toKeyCommands(input: string, key: Key): KeyCommand[] {
  if (input.length <= 1 || (!CONTROL.test(input) && !input.endsWith('\t'))) return [toKeyCommand(input, key)];
  const out: KeyCommand[] = [];
  let text = '';
  const flush = (): void => {
    if (text !== '') out.push({ name: 'text', text });
    text = '';
  };
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    const code = ch.charCodeAt(0);
    const last = i === input.length - 1;
    if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && input[i + 1] === '\n') i++;
      if (last || i === input.length - 1) {
        // Keys typed before raw mode was on arrive line-buffered, ending in LF: still Enter.
        flush();
        out.push({ name: 'submit' });
      } else {
        text += '\n';
      }
    } else if (ch === '\t') {
      // Tabs at the very end are Tab keys typed right after text (pressed twice quickly on a busy
      // machine, they arrive in one read); a tab with text after it is pasted text.
      if (/^\t+$/.test(input.slice(i))) {
        flush();
        out.push({ name: 'complete' });
      } else {
        text += ch;
      }
    } else if (code === 0x7f || code === 0x08) {
      flush();
      out.push({ name: 'backspace' });
    } else if (ch === UNDO) {
      flush();
      out.push({ name: 'undo' });
    } else if (code < 0x20) {
      flush();
      const named = CTRL[String.fromCharCode(code + 0x60)];
      if (named) out.push({ name: named } as KeyCommand);
    } else {
      text += ch;
    }
  }
  flush();
  return out;
}
