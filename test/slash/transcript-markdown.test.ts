/**
 * /export's Markdown, from the state the real reducer builds out of engine events: a heading per
 * turn and for both sides, the answer's own headings below them; tool calls folded into
 * <details>, diffs numbered; no label said twice. (Where the file goes, and under which policy:
 * test/agent/export.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/agent/events.js';
import { reduce } from '../../src/agent/reducer.js';
import { unifiedDiff } from '../../src/tools/apply-change.js';
import { transcriptMarkdown } from '../../src/slash/transcript-markdown.js';
import { initialState } from '../components/fake-engine.js';

function exported(): string {
  const diff = unifiedDiff('prices.py', 'a = 1\nb = 2\nc = 3\n', 'a = 1\nb = 20\nc = 3\n');
  const events: EngineEvent[] = [
    { type: 'turn.start', blockId: 'u1', text: 'change b' },
    { type: 'reasoning.delta', blockId: 'r1', text: 'b should be 20' },
    { type: 'block.end', blockId: 'r1' },
    { type: 'tool.start', blockId: 't1', callId: 'c1', name: 'edit_file', title: 'edit_file prices.py' },
    { type: 'tool.end', blockId: 't1', status: 'ok', summary: 'Edited prices.py', change: { verb: 'edit', path: 'prices.py', added: 1, removed: 1, diff: diff.text } },
    { type: 'tool.start', blockId: 't2', callId: 'c2', name: 'write_file', title: 'write_file notes.txt' },
    { type: 'tool.end', blockId: 't2', status: 'denied', summary: 'denied: write notes.txt' },
    { type: 'tool.start', blockId: 't3', callId: 'c3', name: 'bash', title: 'bash npm test' },
    { type: 'tool.output', blockId: 't3', text: 'PASS a.test.ts\nPASS b.test.ts\n' },
    { type: 'tool.end', blockId: 't3', status: 'ok', summary: 'exit 0, 2 lines of output' },
    { type: 'assistant.delta', blockId: 'a1', text: '## Summary\n\nSet **b** to 20.' },
    { type: 'turn.end', blockId: 'e1', status: 'finished' },
    { type: 'turn.start', blockId: 'u2', text: 'and c?' },
    { type: 'assistant.delta', blockId: 'a2', text: 'Looking' },
    { type: 'turn.end', blockId: 'e2', status: 'interrupted', detail: 'Interrupted by the user.' },
  ];
  return transcriptMarkdown(events.reduce(reduce, initialState({ sessionId: 'sess-77' })));
}

describe('/export', () => {
  it('gives each turn and both sides a heading, folds tool calls, numbers diffs, says no label twice', () => {
    const md = exported();
    // A heading per turn, one for each side under it; the answer's "## Summary" moved below them.
    expect(md).toMatch(/## Turn 1\n\n### You\n\nchange b\n\n### lindwyrm\n/);
    expect(md).toContain('#### Summary');
    expect(md).not.toMatch(/^## Summary/m);
    expect(md).toContain('## Turn 2\n\n### You\n\nand c?');
    // Calls and results folded; the diff numbered, marker first so ```diff still colours it.
    expect(md).toContain('<details>\n<summary>edit prices.py +1 −1</summary>');
    expect(md).toMatch(/```diff\n[\s\S]*-2 {3}│ b = 2\n\+ {2}2 │ b = 20\n/);
    expect(md).toContain('<details>\n<summary>bash npm test — exit 0, 2 lines of output</summary>\n\n```\nPASS a.test.ts\nPASS b.test.ts\n```');
    expect(md).toContain('<details><summary>write_file notes.txt — denied: write notes.txt</summary></details>');
    expect(md).toContain('<details>\n<summary>Reasoning</summary>\n\nb should be 20\n\n</details>');
    // No label twice, no sentence ending twice.
    expect(md).not.toMatch(/denied: denied/);
    expect(md).toContain('*Interrupted by the user.*');
    expect(md).not.toContain('..*');
    expect(md).not.toMatch(/Interrupted: Interrupted/i);
  });
});
