/** Turns one transcript block into wrapped, styled rows. Pure: same input, same rows. */
import type { TranscriptBlock } from '../../src/agent/state.js';
import { oneLine, sanitizeForTerminal } from '../text/sanitize.js';
import type { Segment, StyledLine, TextStyle } from '../text/styled-line.js';
import { wrapSegments, wrapText } from '../text/wrap.js';
import { theme } from '../theme.js';
import { renderMarkdown } from './markdown.js';
import { editRows } from './edit-rows.js';

export interface FormatOptions {
  readonly markdown: boolean;
  /** Show reasoning in full (finished or streaming) instead of a one-line summary, and edits with their diffs. */
  readonly expandReasoning: boolean;
  /** No live reasoning pane (a short screen): the thinking row shows the latest thought instead. */
  readonly inlineReasoning?: boolean;
}

const THINKING = '▸ thinking…';
export const REASONING_OPEN = '▾ reasoning (Ctrl+O hides)';
const REASONING_GUTTER: Segment = { text: '│ ', style: theme.dim };

/** Reasoning text in full, as the expanded view shows it. */
export function reasoningRows(text: string, width: number): StyledLine[] {
  return wrapText(text, width, theme.reasoning, { firstPrefix: [REASONING_GUTTER] });
}

/** The thinking row with the end of the latest line of reasoning on it: one row, whatever the width. */
function liveThinkingRow(text: string, width: number): StyledLine {
  const tail = text.slice(-2000).trimEnd();
  const latest = oneLine(tail.slice(tail.lastIndexOf('\n') + 1)).trim();
  const room = width - THINKING.length - 1;
  if (latest === '' || room < 8) return [{ text: THINKING, style: theme.reasoning }];
  // The end of the line, so the row moves as the model writes.
  const last = wrapText(latest, room, theme.dim).at(-1) ?? [];
  return [{ text: `${THINKING} `, style: theme.reasoning }, ...last];
}

/** Lines of a multi-line command shown before the rest is folded into a count. */
export const COMMAND_ROWS = 4;

/**
 * Every line of a call's whole text (a command the title clips), numbered: the first few, then
 * how many more, unless expanded (Ctrl+O), when all of them show.
 */
function detailRows(detail: string, title: string, width: number, expanded: boolean): StyledLine[] {
  const lines = sanitizeForTerminal(detail).replace(/\n+$/, '').split('\n');
  // One line the title already shows whole: nothing to add.
  if (lines.length === 1 && oneLine(title).endsWith(lines[0] ?? '')) return [];
  const digits = String(lines.length).length;
  const shown = expanded || lines.length <= COMMAND_ROWS + 1 ? lines : lines.slice(0, COMMAND_ROWS);
  const rows: StyledLine[] = [];
  shown.forEach((line, i) => {
    const gutter = { text: `  ${String(i + 1).padStart(digits)} │ `, style: theme.dim };
    rows.push(...wrapSegments(line === '' ? [] : [{ text: line, style: theme.command }], width, { firstPrefix: [gutter], restPrefix: [{ text: `  ${''.padStart(digits)} │ `, style: theme.dim }] }));
  });
  const hidden = lines.length - shown.length;
  if (hidden > 0) rows.push(...wrapText(`  … ${hidden} more line${hidden === 1 ? '' : 's'} of this command (Ctrl+O shows all)`, width, theme.dim, { restPrefix: [{ text: '    ' }] }));
  return rows;
}

/** Live tool output shown while a command runs, and kept after it ends. */
const RUNNING_OUTPUT_ROWS = 12;
const FINISHED_OUTPUT_ROWS = 6;

export function formatAnswer(text: string, width: number, markdown: boolean): StyledLine[] {
  const clean = sanitizeForTerminal(text);
  return markdown ? renderMarkdown(clean, width) : wrapText(clean, width);
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** `total`: lines of the whole output (the kept tail may start mid-way), so the count is of all. */
function outputTail(output: string, width: number, rows: number, total?: number): StyledLine[] {
  const lines = sanitizeForTerminal(output.replace(/\n+$/, '')).split('\n');
  const shown = lines.slice(-rows);
  const earlier = Math.max(lines.length, total ?? 0) - shown.length;
  const out: StyledLine[] = [];
  if (earlier > 0) out.push([{ text: `  │ … ${earlier} earlier line${earlier === 1 ? '' : 's'}`, style: theme.dim }]);
  for (const line of shown) {
    out.push(...wrapSegments(line === '' ? [] : [{ text: line, style: theme.dim }], width, {
      firstPrefix: [{ text: '  │ ', style: theme.dim }],
    }).slice(-2));
  }
  return out.slice(-rows - 1);
}

const TOOL_STATUS: Record<string, { mark: string; style: TextStyle }> = {
  ok: { mark: '✓', style: theme.ok },
  error: { mark: '✗', style: theme.error },
  denied: { mark: '⊘', style: theme.warning },
  interrupted: { mark: '⏹', style: theme.warning },
};

export function formatBlock(block: TranscriptBlock, width: number, opts: FormatOptions): StyledLine[] {
  switch (block.kind) {
    case 'user':
      return [
        [],
        ...wrapSegments([{ text: sanitizeForTerminal(block.text).split('\n')[0] ?? '', style: theme.userText }], width, {
          firstPrefix: [{ text: 'you › ', style: theme.user }],
          restPrefix: [{ text: '      ' }],
        }),
        ...sanitizeForTerminal(block.text)
          .split('\n')
          .slice(1)
          .flatMap((line) => wrapSegments(line === '' ? [] : [{ text: line, style: theme.userText }], width, { firstPrefix: [{ text: '      ' }] })),
      ];
    case 'assistant':
      return [[], ...formatAnswer(block.text, width, opts.markdown)];
    case 'reasoning': {
      // Ctrl+O works while it streams too: the whole of it, growing, instead of the pane's tail.
      if (opts.expandReasoning) return [[{ text: REASONING_OPEN, style: theme.reasoning }], ...reasoningRows(sanitizeForTerminal(block.text), width)];
      if (block.streaming) return [opts.inlineReasoning ? liveThinkingRow(block.text, width) : [{ text: THINKING, style: theme.reasoning }]];
      const n = lineCount(block.text);
      return [[{ text: `▸ thought for ${n} line${n === 1 ? '' : 's'} (Ctrl+O shows reasoning)`, style: theme.reasoning }]];
    }
    case 'tool': {
      if (block.change && block.status === 'ok') return editRows(block.change, width, opts.expandReasoning);
      const running = block.status === 'running';
      const rows: StyledLine[] = wrapSegments([{ text: oneLine(block.title), style: running ? theme.toolRunning : theme.tool }], width, {
        firstPrefix: [{ text: '→ ', style: running ? theme.toolRunning : theme.tool }],
        restPrefix: [{ text: '  ' }],
      });
      if (block.detail !== undefined) rows.push(...detailRows(block.detail, block.title, width, opts.expandReasoning));
      if (block.output !== '' && (running || block.name === 'bash')) {
        rows.push(...outputTail(block.output, width, running ? RUNNING_OUTPUT_ROWS : FINISHED_OUTPUT_ROWS, block.outputLines));
      }
      const status = TOOL_STATUS[block.status];
      if (status && block.resultSummary !== undefined) {
        rows.push(...wrapSegments([{ text: sanitizeForTerminal(block.resultSummary).split('\n')[0] ?? '', style: status.style }], width, {
          firstPrefix: [{ text: `  ${status.mark} `, style: status.style }],
          restPrefix: [{ text: '    ' }],
        }));
      } else if (status) {
        rows.push([{ text: `  ${status.mark} ${block.status}`, style: status.style }]);
      }
      return rows;
    }
    case 'turn_end': {
      const detail = block.detail === undefined ? '' : `: ${sanitizeForTerminal(block.detail)}`;
      const style = block.status === 'finished' ? theme.dim : block.status === 'error' ? theme.error : theme.warning;
      const mark = block.status === 'finished' ? '─ finished' : block.status === 'error' ? '✗ error' : block.status === 'interrupted' ? '⏹ interrupted' : '⚠ incomplete';
      return wrapText(`${mark}${detail}`, width, style);
    }
    case 'notice': {
      const style = block.level === 'error' ? theme.error : block.level === 'warning' ? theme.warning : theme.info;
      return wrapText(sanitizeForTerminal(block.text), width, style, {
        firstPrefix: [{ text: block.level === 'info' ? '• ' : '! ', style }],
        restPrefix: [{ text: '  ' }],
      });
    }
    default: {
      const unhandled: never = block;
      return unhandled;
    }
  }
}
