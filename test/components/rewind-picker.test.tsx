import { describe, expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';
import { FakeEngine } from './fake-engine.js';
import type { SlashReply } from './fake-engine.js';
import type { CheckpointSummary, RewindPreview } from '../../src/rewind/summaries.js';

const checkpoints: CheckpointSummary[] = [
  { id: 2, kind: 'turn', at: '2026-12-01T10:05:00.000Z', prompt: 'add tests', files: 1, added: 12, removed: 0, changedOutside: 1, hasConversation: true, notes: [] },
  { id: 1, kind: 'turn', at: '2026-12-01T10:00:00.000Z', prompt: 'fix the parser', files: 2, added: 3, removed: 1, changedOutside: 0, hasConversation: true, notes: [] },
];
const lines = ['  2  2026-12-01 10:05  add tests  · 1 file +12 −0 · ⚠ 1 changed outside lindwyrm since', '  1  2026-12-01 10:00  fix the parser  · 2 files +3 −1'];

function preview(id: number, changedOutside: number): RewindPreview {
  return {
    id,
    prompt: id === 1 ? 'fix the parser' : 'add tests',
    items: [{ path: 'src/parser.ts', action: 'restore', added: 1, removed: 3, changedOutside: changedOutside > 0, folder: false }],
    changedOutside,
    unrestorable: 0,
    droppedMessages: 4,
  };
}

function scripted(engine: FakeEngine): void {
  engine.slashReply = (cmd): SlashReply => {
    if (cmd === '/rewind') return { kind: 'rewind', output: 'list', rewind: { kind: 'list', checkpoints, lines } };
    const m = /^\/rewind (\d+) (\w+)( confirm)?( overwrite)?$/.exec(cmd);
    if (!m) return { output: `unexpected ${cmd}`, error: true };
    const id = Number(m[1]);
    if (!m[3]) {
      const p = preview(id, id === 2 ? 1 : 0);
      return { kind: 'rewind', output: 'preview', rewind: { kind: 'preview', part: m[2] as 'both', preview: p, text: `Going back to before ${id}:\n  restore  src/parser.ts (+1 −3)${id === 2 ? '  ⚠ changed outside lindwyrm since' : ''}` } };
    }
    return { kind: 'rewound', output: `Rewound to before ${id}: 1 path(s) restored.\nThis rewind is checkpoint 3: going back to it undoes the rewind.`, input: id === 1 ? 'fix the parser' : 'add tests' };
  };
}

describe('the rewind picker', () => {
  it('Esc Esc on an empty input lists the turns; Enter previews, a second Enter restores and the prompt returns to the input', async () => {
    const engine = new FakeEngine();
    scripted(engine);
    const r = renderApp({ engine, rows: 24, columns: 110 });
    await r.type(KEYS.escape);
    await settle();
    await r.type(KEYS.escape);
    await settle();
    expect(engine.slashes).toEqual(['/rewind']);
    expect(r.frame()).toContain('Rewind: go back to before a prompt (2)');
    expect(r.frame()).toContain('fix the parser  · 2 files +3 −1');
    expect(r.frame()).toContain('⚠ 1 changed outside lindwyrm since');
    await r.type(KEYS.down, KEYS.enter);
    await settle();
    expect(engine.slashes.at(-1)).toBe('/rewind 1 both');
    expect(r.frame()).toContain('restore  src/parser.ts (+1 −3)');
    // Nothing has changed yet: the preview only asked.
    expect(engine.slashes.some((s) => s.includes('confirm'))).toBe(false);
    await r.type(KEYS.enter);
    await settle();
    expect(engine.slashes.at(-1)).toBe('/rewind 1 both confirm');
    expect(r.frame()).toContain('Rewound to before 1');
    expect(r.frame()).toContain('fix the parser');
    await r.type(KEYS.escape);
    await r.type(KEYS.enter);
    expect(engine.submitted).toEqual(['fix the parser']);
  });

  it('a file changed outside lindwyrm needs its own answer: k keeps it, o overwrites it', async () => {
    const engine = new FakeEngine();
    scripted(engine);
    const r = renderApp({ engine, rows: 24, columns: 110 });
    await r.type('/rewind', KEYS.enter);
    await settle();
    await r.type('c');
    await settle();
    expect(engine.slashes.at(-1)).toBe('/rewind 2 code');
    await r.type(KEYS.enter);
    expect(r.frame()).toContain('1 file(s) changed outside lindwyrm since: o overwrite them too · k keep them');
    expect(engine.slashes.some((s) => s.includes('confirm'))).toBe(false);
    await r.type(KEYS.escape);
    expect(r.frame()).not.toContain('o overwrite them too');
    await r.type(KEYS.enter, 'k');
    await settle();
    expect(engine.slashes.at(-1)).toBe('/rewind 2 code confirm');
    // The prompt came back to the input; Ctrl+U clears it before the next command.
    await r.type(KEYS.escape, '\x15', '/rewind', KEYS.enter);
    await settle();
    await r.type('c');
    await settle();
    await r.type(KEYS.enter, 'o');
    await settle();
    expect(engine.slashes.at(-1)).toBe('/rewind 2 code confirm overwrite');
  });

  it('files changed outside lindwyrm can be chosen one by one: Space marks one to overwrite, Enter keeps the rest', async () => {
    const engine = new FakeEngine();
    const outside = ['src/a b.ts', 'docs/notes,v2.md'];
    const item = (path: string, changedOutside: boolean) => ({ path, action: 'restore' as const, added: 1, removed: 1, changedOutside, folder: false });
    engine.slashReply = (cmd): SlashReply => {
      if (cmd === '/rewind') return { kind: 'rewind', output: 'list', rewind: { kind: 'list', checkpoints, lines } };
      if (cmd === '/rewind 2 code') {
        const p: RewindPreview = { id: 2, prompt: 'add tests', items: [item('lib.ts', false), ...outside.map((o) => item(o, true))], changedOutside: 2, unrestorable: 0 };
        return { kind: 'rewind', output: 'preview', rewind: { kind: 'preview', part: 'code', preview: p, text: 'Going back to before 2:' } };
      }
      return { kind: 'rewound', output: 'Rewound to before 2.' };
    };
    const r = renderApp({ engine, rows: 24, columns: 140 });
    await r.type('/rewind', KEYS.enter);
    await settle();
    await r.type('c');
    await settle();
    await r.type(KEYS.enter);
    expect(r.frame()).toContain('[ ] src/a b.ts');
    expect(r.frame()).toContain('[ ] docs/notes,v2.md');
    expect(r.frame()).not.toContain('[ ] lib.ts');
    // Down to the second, mark it, mark and unmark the first: only the second is overwritten.
    await r.type(KEYS.down, ' ', KEYS.up, ' ', ' ');
    expect(r.frame()).toContain('[x] docs/notes,v2.md');
    expect(r.frame()).toContain('[ ] src/a b.ts');
    expect(engine.slashes.some((s) => s.includes('confirm'))).toBe(false);
    await r.type(KEYS.enter);
    await settle();
    expect(engine.slashes.at(-1)).toBe(`/rewind 2 code confirm overwrite=${encodeURIComponent('docs/notes,v2.md')}`);
  });

  it('Esc Esc that reaches the app as one read (it was busy) still opens it', async () => {
    const engine = new FakeEngine();
    scripted(engine);
    const r = renderApp({ engine, rows: 24, columns: 110 });
    await r.type(KEYS.escape + KEYS.escape);
    await settle();
    expect(engine.slashes).toEqual(['/rewind']);
    expect(r.frame()).toContain('Rewind: go back to before a prompt (2)');
  });

  it('one Esc, or Esc Esc with text in the input, does not open it', async () => {
    const engine = new FakeEngine();
    scripted(engine);
    const r = renderApp({ engine, rows: 24, columns: 110 });
    await r.type(KEYS.escape);
    await settle();
    expect(engine.slashes).toEqual([]);
    await r.type('draft');
    await r.type(KEYS.escape);
    await r.type(KEYS.escape);
    await settle();
    expect(engine.slashes).toEqual([]);
  });
});
