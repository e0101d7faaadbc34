/** The transcript as Markdown, for /export: nothing stays trapped in the alternate screen. Pure. */
import type { SessionState, TranscriptBlock } from '../agent/state.js';

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}\n${text.replace(/\n+$/, '')}\n${marks}`;
}

function blockMarkdown(block: TranscriptBlock): string | undefined {
  switch (block.kind) {
    case 'user':
      return `## You\n\n${block.text}`;
    case 'assistant':
      return block.text.trim() === '' ? undefined : block.text;
    case 'reasoning':
      return block.text.trim() === '' ? undefined : `<details><summary>Reasoning</summary>\n\n${block.text.trim()}\n\n</details>`;
    case 'tool': {
      const head = `- \`${block.title.replaceAll('`', "'")}\` — ${block.status}${block.resultSummary ? `: ${block.resultSummary}` : ''}`;
      // The whole command as it ran, every line of it: the title above is clipped to one.
      const parts = [head, ...(block.detail !== undefined ? [fence(block.detail)] : [])];
      if (block.name === 'bash' && block.output.trim() !== '') parts.push(fence(block.output));
      return parts.join('\n\n');
    }
    case 'turn_end':
      return `*Turn ${block.status}${block.detail ? `: ${block.detail}` : ''}.*`;
    case 'notice':
      return `> ${block.text.replaceAll('\n', '\n> ')}`;
    default: {
      const unhandled: never = block;
      return unhandled;
    }
  }
}

export function transcriptMarkdown(state: SessionState): string {
  const parts = [
    `# lindwyrm session ${state.sessionId}`,
    `Preset ${state.preset.name} (${state.preset.format}, ${state.preset.model}) · project ${state.projectRoot}`,
  ];
  for (const block of state.blocks) {
    const md = blockMarkdown(block);
    if (md !== undefined) parts.push(md);
  }
  return `${parts.join('\n\n')}\n`;
}
