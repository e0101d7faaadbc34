/**
 * /export through the real app: by default a file under the data dir (never into the project),
 * its path shown; a heading per turn and for both sides, the answer's own headings below them;
 * tool calls folded into <details>, diffs numbered; no label said twice.
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/tools/apply-change.js';
import { FakeEngine, initialState } from './fake-engine.js';
import { KEYS, renderApp, settle } from './render-app.js';

const dirs: string[] = [];
const saved = process.env['XDG_DATA_HOME'];
afterEach(async () => {
  if (saved === undefined) delete process.env['XDG_DATA_HOME'];
  else process.env['XDG_DATA_HOME'] = saved;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function temp(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'lwyrm-export-'));
  dirs.push(d);
  return d;
}

/** The flash saying the file is written is the event to wait for (a few file operations). */
async function written(r: ReturnType<typeof renderApp>): Promise<void> {
  for (let i = 0; i < 100 && !r.frame().includes('Transcript written'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await settle();
  }
}

function session(engine: FakeEngine): void {
  const diff = unifiedDiff('prices.py', 'a = 1\nb = 2\nc = 3\n', 'a = 1\nb = 20\nc = 3\n');
  engine.emit(
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
  );
}

describe('/export', () => {
  it('writes under the data dir by default, not into the project, and says where', async () => {
    const data = await temp();
    const project = await temp();
    process.env['XDG_DATA_HOME'] = data;
    const engine = new FakeEngine(initialState({ projectRoot: project, sessionId: 'sess-77' }));
    session(engine);
    const r = renderApp({ engine, columns: 120, rows: 24 });
    await r.type('/export', KEYS.enter);
    const path = join(data, 'lindwyrm', 'exports', 'sess-77.md');
    await written(r);
    expect(r.frame()).toContain(`Transcript written to ${path}`);
    expect(await readdir(project)).toEqual([]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(data, 'lindwyrm', 'exports'))).mode & 0o777).toBe(0o700);

    const md = await readFile(path, 'utf8');
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

  it('writes to the file named, from the project root', async () => {
    const project = await temp();
    const engine = new FakeEngine(initialState({ projectRoot: project }));
    session(engine);
    const r = renderApp({ engine, columns: 120, rows: 24 });
    await r.type('/export out/../t.md', KEYS.enter);
    await written(r);
    expect(await readFile(join(project, 't.md'), 'utf8')).toContain('### You');
  });
});
