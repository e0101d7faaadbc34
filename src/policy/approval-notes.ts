/**
 * What an approval must say about its own text, so the text cannot mislead the person reading
 * it: control characters (named in the title; they are shown escaped), words in mixed scripts
 * (mixed-script.ts), and single lines too long to read, which are clipped for the first view —
 * head and tail kept, the middle elided with its length — while the whole text is one key away.
 */
import type { ApprovalRequest } from './types.js';
import { isUnsafeCodePoint } from './escape.js';
import { mixedScriptFlags } from './mixed-script.js';

/** An approval line longer than this (escaped characters) is clipped in the first view. */
export const MAX_APPROVAL_LINE = 400;
const HEAD = 240;
const TAIL = 120;

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'NUL', 0x07: 'BEL', 0x08: 'BS', 0x0b: 'VT', 0x0c: 'FF', 0x0d: 'CR', 0x1b: 'ESC', 0x7f: 'DEL',
  0x85: 'NEL', 0x9b: 'CSI', 0x9d: 'OSC', 0x200b: 'ZWSP', 0x200c: 'ZWNJ', 0x200d: 'ZWJ', 0x200e: 'LRM', 0x200f: 'RLM',
  0x202a: 'LRE', 0x202b: 'RLE', 0x202c: 'PDF', 0x202d: 'LRO', 0x202e: 'RLO', 0x2066: 'LRI', 0x2067: 'RLI',
  0x2068: 'FSI', 0x2069: 'PDI', 0xfeff: 'BOM',
};

function nameOf(cp: number): string {
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag characters';
  return NAMES[cp] ?? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** 'ESC ×3, CR' for the control and invisible characters in `raw`; '' when it has none. */
export function controlSummary(raw: string): string {
  const counts = new Map<string, number>();
  // CRLF line ends are how a Windows file is written, not a trick.
  for (const ch of raw.replaceAll('\r\n', '\n')) {
    const cp = ch.codePointAt(0) ?? 0;
    if (!isUnsafeCodePoint(cp)) continue;
    const name = nameOf(cp);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}

/** `text` with every line over MAX_APPROVAL_LINE cut to its head and tail; how many were cut. */
export function clipLongLines(text: string): { text: string; clipped: number; longest: number } {
  let clipped = 0;
  let longest = 0;
  const lines = text.split('\n').map((line) => {
    if (line.length <= MAX_APPROVAL_LINE) return line;
    clipped++;
    longest = Math.max(longest, line.length);
    return `${line.slice(0, HEAD)} …[${(line.length - HEAD - TAIL).toLocaleString('en-US')} characters not shown]… ${line.slice(-TAIL)}`;
  });
  return { text: clipped === 0 ? text : lines.join('\n'), clipped, longest };
}

/** Added lines of a unified diff: what the change brings in. */
function addedLines(diff: string): string {
  return diff
    .split('\n')
    .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
    .join('\n');
}

export type ApprovalNotes = Pick<ApprovalRequest, 'flags' | 'titleNote' | 'clipped'>;

/**
 * The notes for one request: `raw` is the text before escaping (to find what it hides), `shown`
 * the escaped command and diff the approval carries (clipped copies are made of those).
 */
export function approvalNotes(raw: { path?: string; command?: string; diff?: string }, shown: { command?: string; diff?: string }): ApprovalNotes {
  const controls = controlSummary([raw.path, raw.command, raw.diff].filter((t) => t !== undefined).join('\n'));
  const flags = mixedScriptFlags([raw.path ?? '', raw.command ?? '', raw.diff !== undefined ? addedLines(raw.diff) : ''].join('\n'));
  const command = shown.command !== undefined ? clipLongLines(shown.command) : undefined;
  const diff = shown.diff !== undefined ? clipLongLines(shown.diff) : undefined;
  const clippedLines = (command?.clipped ?? 0) + (diff?.clipped ?? 0);
  const longest = Math.max(command?.longest ?? 0, diff?.longest ?? 0);
  return {
    ...(flags.length > 0 ? { flags } : {}),
    ...(controls !== '' ? { titleNote: `contains control characters: ${controls}` } : {}),
    ...(clippedLines > 0
      ? {
          clipped: {
            ...(command !== undefined ? { command: command.text } : {}),
            ...(diff !== undefined ? { diff: diff.text } : {}),
            note: `${clippedLines === 1 ? 'a line' : `${clippedLines} lines`} over ${MAX_APPROVAL_LINE} characters clipped (the longest has ${longest.toLocaleString('en-US')})`,
          },
        }
      : {}),
  };
}
