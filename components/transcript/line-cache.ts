/**
 * Cache of formatted rows per block, keyed on (id, version, width, options). Finished blocks are
 * laid out once. A streaming answer is laid out incrementally: the part before the last safe
 * split point is rendered as markdown once and kept; only the tail after it is re-wrapped (plain)
 * on each frame, so a long answer costs the same per frame as a short one.
 */
import type { TranscriptBlock } from '../../src/agent/state.js';
import type { StyledLine } from '../text/styled-line.js';
import { wrapText } from '../text/wrap.js';
import { sanitizeForTerminal } from '../text/sanitize.js';
import { formatAnswer, formatBlock, type FormatOptions } from './format-block.js';
import { findSafeSplit } from './markdown.js';

interface Entry {
  version: number;
  key: string;
  lines: readonly StyledLine[];
  /** Streaming answers only: text length already rendered as final rows, and those rows. */
  doneChars?: number;
  doneLines?: StyledLine[];
}

export class LineCache {
  private readonly entries = new Map<string, Entry>();

  /** Rows for a block; the same array object while nothing about it changed. */
  rows(block: TranscriptBlock, width: number, opts: FormatOptions): readonly StyledLine[] {
    const key = `${width}|${opts.markdown ? 1 : 0}|${opts.expandReasoning ? 1 : 0}`;
    const hit = this.entries.get(block.id);
    if (hit && hit.version === block.version && hit.key === key) return hit.lines;
    if (block.kind === 'assistant' && block.streaming) {
      return this.streaming(block.id, block.text, block.version, width, opts.markdown, key, hit);
    }
    const lines = formatBlock(block, width, opts);
    this.entries.set(block.id, { version: block.version, key, lines });
    return lines;
  }

  private streaming(
    id: string,
    text: string,
    version: number,
    width: number,
    markdown: boolean,
    key: string,
    hit: Entry | undefined,
  ): readonly StyledLine[] {
    const reuse = hit !== undefined && hit.key === key && hit.doneChars !== undefined && hit.doneLines !== undefined;
    let doneChars = reuse ? hit.doneChars! : 0;
    const doneLines: StyledLine[] = reuse ? hit.doneLines! : [[]];
    // Only scan the new part: a split point never moves backwards while text is appended.
    const split = doneChars + findSafeSplit(text.slice(doneChars));
    if (split > doneChars) {
      const part = text.slice(doneChars, split).replace(/\n+$/, '');
      const rows = formatAnswer(part, width, markdown);
      if (doneChars > 0) doneLines.push([]);
      for (const row of rows) doneLines.push(row);
      doneChars = split;
    }
    const tail = text.slice(doneChars).replace(/\n$/, '');
    const tailRows = tail === '' ? [] : wrapText(sanitizeForTerminal(tail), width);
    // The split point sits just after a blank line: keep that gap between the parts.
    if (tailRows.length > 0 && doneChars > 0) tailRows.unshift([]);
    const lines = tailRows.length === 0 ? doneLines.slice() : doneLines.concat(tailRows);
    this.entries.set(id, { version, key, lines, doneChars, doneLines });
    return lines;
  }

  /** Forget blocks that are gone (a cleared or resumed session). */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!ids.has(id)) this.entries.delete(id);
  }
}
