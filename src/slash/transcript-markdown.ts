/**
 * The transcript as Markdown, for /export: nothing stays trapped in the alternate screen. Each turn
 * gets a heading and both sides a heading under it, so an answer's own "## Plan" (moved three
 * levels down) never reads as a sibling of "You"; tool calls and their results fold into
 * <details>; diffs carry their line numbers. Pure.
 */
import type { SessionState, TranscriptBlock } from '../agent/state.js';
import { numberedDiffText } from '../tools/numbered-diff.js';

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${lang}\n${text.replace(/\n+$/, '')}\n${marks}`;
}

/** Headings of quoted markdown moved below the export's own (h2 turn, h3 side), outside code fences. */
export function demoteHeadings(markdown: string, by = 3): string {
  let fenceMark: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (f) {
        if (fenceMark === undefined) fenceMark = f[1]!;
        else if (f[1]![0] === fenceMark[0] && f[1]!.length >= fenceMark.length && line.trim() === f[1]) fenceMark = undefined;
        return line;
      }
      if (fenceMark !== undefined) return line;
      const h = /^ {0,3}(#{1,6})(\s|$)/.exec(line);
      return h ? `${'#'.repeat(Math.min(6, h[1]!.length + by))}${line.trimStart().slice(h[1]!.length)}` : line;
    })
    .join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** "denied: write_file" stays as it is; "Edited prices.py" under status error becomes "error: …" — never "denied: denied: …". */
export function labelled(status: string, text: string): string {
  if (text === '') return status;
  return text.toLowerCase().startsWith(status.toLowerCase()) ? text : `${status}: ${text}`;
}

/** A sentence ends with one full stop, not two ("Interrupted by the user.."). */
function sentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

function details(summary: string, body?: string): string {
  return body === undefined || body.trim() === ''
    ? `<details><summary>${escapeHtml(summary)}</summary></details>`
    : `<details>\n<summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

function toolMarkdown(block: Extract<TranscriptBlock, { kind: 'tool' }>): string {
  const change = block.change;
  if (change && block.status === 'ok') {
    const counts = change.verb === 'create' ? `+${change.added}` : `+${change.added} \u2212${change.removed}`;
    return details(`${change.verb} ${change.path} ${counts}`, change.diff ? fence(numberedDiffText(change.diff), 'diff') : undefined);
  }
  const result = block.resultSummary ?? '';
  const summary = block.status === 'ok' ? `${block.title}${result ? ` — ${result}` : ''}` : `${block.title} — ${labelled(block.status, result)}`;
  // The whole command as it ran, every line of it (the title is clipped to one), then its output.
  const parts = [...(block.detail !== undefined ? [fence(block.detail, block.name === 'bash' ? 'sh' : '')] : []), ...(block.output.trim() !== '' ? [fence(block.output)] : [])];
  return details(summary, parts.length > 0 ? parts.join('\n\n') : undefined);
}

function blockMarkdown(block: TranscriptBlock): string | undefined {
  switch (block.kind) {
    case 'user':
      return demoteHeadings(block.text);
    case 'assistant':
      return block.text.trim() === '' ? undefined : demoteHeadings(block.text);
    case 'reasoning':
      return block.text.trim() === '' ? undefined : details('Reasoning', block.text.trim());
    case 'tool':
      return toolMarkdown(block);
    case 'turn_end': {
      if (block.status === 'finished') return undefined;
      const status = block.status[0]!.toUpperCase() + block.status.slice(1);
      return `*${escapeHtml(sentence(block.detail ? labelled(status, block.detail) : status))}*`;
    }
    case 'notice':
      return `> ${block.level === 'info' ? '' : `**${block.level === 'error' ? 'Error' : 'Warning'}:** `}${block.text.replaceAll('\n', '\n> ')}`;
    default: {
      const unhandled: never = block;
      return unhandled;
    }
  }
}

export function transcriptMarkdown(state: SessionState, now: Date = new Date()): string {
  const parts = [
    `# lindwyrm session ${state.sessionId}`,
    `Preset ${state.preset.name} (${state.preset.format}, ${state.preset.model}) · project ${state.projectRoot} · exported ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  ];
  let turn = 0;
  let answerSide = false;
  for (const block of state.blocks) {
    if (block.kind === 'user') {
      turn++;
      answerSide = false;
      parts.push(`## Turn ${turn}`, '### You');
    } else if (turn > 0 && !answerSide && block.kind !== 'notice' && block.kind !== 'turn_end') {
      answerSide = true;
      parts.push('### lindwyrm');
    }
    const md = blockMarkdown(block);
    if (md !== undefined) parts.push(md);
  }
  return `${parts.join('\n\n')}\n`;
}
