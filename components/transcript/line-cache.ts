/**
 * Cache of formatted rows per block, keyed on (id, version, width, options). Finished blocks are
 * laid out once. A streaming answer is laid out incrementally: its complete lines are rendered
 * once (markdown is rendered line by line, carrying only whether a code fence is open) and kept;
 * only the unfinished last line is laid out again on each frame, so a long answer costs the same
 * per frame as a short one, and a list or a code block shows rendered while it streams.
 */
import type { TranscriptBlock } from '../../src/agent/state.js';
import type { StyledLine } from '../text/styled-line.js';
import { wrapText } from '../text/wrap.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import { highlighterEpoch } from '../highlight/highlighter.js';
import { theme } from '../theme.js';
import { REASONING_OPEN, formatBlock, reasoningRows, type FormatOptions } from './format-block.js';
import { copyMarkdownState, flushMarkdown, renderMarkdownLines, type MarkdownState } from './markdown.js';

interface Entry {
  version: number;
  key: string;
  lines: readonly StyledLine[];
  /** Streaming answers only: text length already rendered as final rows, those rows, the fence state after them. */
  doneChars?: number;
  doneLines?: StyledLine[];
  doneState?: MarkdownState;
  /** With the block's pieces (StreamPieces): the list read, how many of it, and the unfinished line after doneChars. */
  pieces?: readonly string[];
  donePieces?: number;
  carry?: string;
}

/** How a streaming block's text becomes rows: markdown, plain, or reasoning (dim, in a gutter). */
type Mode = 'markdown' | 'plain' | 'reasoning';

function renderLines(lines: readonly string[], width: number, mode: Mode, state: MarkdownState): StyledLine[] {
  if (mode === 'markdown') return renderMarkdownLines(lines, width, state);
  const rows: StyledLine[] = [];
  for (const line of lines) rows.push(...(mode === 'plain' ? wrapText(line, width) : reasoningRows(line, width)));
  return rows;
}

/** The unfinished last line, with whatever the state holds back, laid out as if the text ended there. */
function renderTail(tail: string, width: number, mode: Mode, state: MarkdownState): StyledLine[] {
  if (mode !== 'markdown') return renderLines([tail], width, mode, state);
  const copy = copyMarkdownState(state);
  const rows = renderMarkdownLines([tail], width, copy);
  rows.push(...flushMarkdown(width, copy));
  return rows;
}

export class LineCache {
  private readonly entries = new Map<string, Entry>();

  /** Rows for a block; the same array object while nothing about it changed. */
  rows(block: TranscriptBlock, width: number, opts: FormatOptions): readonly StyledLine[] {
    // Only a live reasoning block looks different inline: other blocks keep their rows when it flips.
    const inline = opts.inlineReasoning === true && block.kind === 'reasoning' && block.streaming ? '|i' : '';
    // A language's highlighter that finished loading changes how code looks: lay out again.
    const key = `${width}|${opts.markdown ? 1 : 0}|${opts.expandReasoning ? 1 : 0}|${highlighterEpoch()}${inline}`;
    const hit = this.entries.get(block.id);
    if (hit && hit.version === block.version && hit.key === key) return hit.lines;
    if (block.kind === 'assistant' && block.streaming) {
      // The answer's rows start with the blank row formatBlock puts before every answer.
      return this.streaming(block, width, opts.markdown ? 'markdown' : 'plain', key, hit, []);
    }
    if (block.kind === 'reasoning' && block.streaming && opts.expandReasoning) {
      return this.streaming(block, width, 'reasoning', key, hit, [{ text: REASONING_OPEN, style: theme.reasoning }]);
    }
    const lines = formatBlock(block, width, opts);
    this.entries.set(block.id, { version: block.version, key, lines });
    return lines;
  }

  private streaming(block: TranscriptBlock & { kind: 'assistant' | 'reasoning' }, width: number, mode: Mode, key: string, hit: Entry | undefined, head: StyledLine): readonly StyledLine[] {
    const { id, version, stream } = block;
    const reuse = hit !== undefined && hit.key === key && hit.doneChars !== undefined && hit.doneLines !== undefined && hit.doneState !== undefined;
    // Text only grows while it streams; anything else (a reset) starts over.
    const grown = reuse && (stream ? hit.pieces === stream.list && stream.count >= (hit.donePieces ?? 0) : block.text.length >= hit.doneChars!);
    let doneChars = grown ? hit.doneChars! : 0;
    const doneLines: StyledLine[] = grown ? hit.doneLines! : [head];
    const doneState: MarkdownState = grown ? hit.doneState! : {};
    // Only the text after the rows already laid out is read: from the pieces when the block has
    // them. The text itself is a rope of one piece per delta, and reading any of it (a search, a
    // slice) flattens the whole answer into a new copy, on every frame.
    let fresh = stream ? (grown ? hit.carry! : '') + stream.list.slice(grown ? hit.donePieces : 0, stream.count).join('') : block.text.slice(doneChars);
    const lastNewline = fresh.lastIndexOf('\n');
    if (lastNewline >= 0) {
      const complete = sanitizeForTerminal(fresh.slice(0, lastNewline)).split('\n');
      for (const row of renderLines(complete, width, mode, doneState)) doneLines.push(row);
      doneChars += lastNewline + 1;
      fresh = fresh.slice(lastNewline + 1);
    }
    // The unfinished line, laid out as it will be once complete (with a copy of the state).
    const tailRows = renderTail(sanitizeForTerminal(fresh), width, mode, doneState);
    const lines = doneLines.concat(tailRows);
    this.entries.set(id, {
      version,
      key,
      lines,
      doneChars,
      doneLines,
      doneState,
      ...(stream ? { pieces: stream.list, donePieces: stream.count, carry: fresh } : {}),
    });
    return lines;
  }

  /** Forget blocks that are gone (a cleared or resumed session). */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!ids.has(id)) this.entries.delete(id);
  }
}
