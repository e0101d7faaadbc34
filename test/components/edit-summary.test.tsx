/**
 * Edits in the transcript and the approval modal, through the real app at explicit sizes: an edit
 * is one line ("→ edit prices.py +1 −4"), Ctrl+O shows its diff with old and new line numbers,
 * and the approval's diff is numbered the same way. The diff is the real one the edit tool makes.
 */
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/tools/apply-change.js';
import { changeFromResult } from '../../src/agent/history-blocks.js';
import { KEYS, renderApp, settle } from './render-app.js';

const BEFORE = 'import math\n\ndef total(items):\n    result = 0\n    for item in items:\n        result = result + item["price"]\n    return result\n';
const AFTER = 'import math\n\ndef total(items):\n    return sum(item["price"] for item in items)\n';
const diff = unifiedDiff('prices.py', BEFORE, AFTER);

function emitEdit(r: ReturnType<typeof renderApp>): void {
  r.engine.emit(
    { type: 'turn.start', blockId: 'u1', text: 'simplify total()' },
    { type: 'tool.start', blockId: 't1', callId: 'c1', name: 'edit_file', title: 'edit_file prices.py' },
    {
      type: 'tool.end',
      blockId: 't1',
      status: 'ok',
      summary: 'Edited prices.py',
      change: { verb: 'edit', path: 'prices.py', added: diff.added, removed: diff.removed, diff: diff.text },
    },
    { type: 'assistant.delta', blockId: 'a1', text: 'Done.' },
    { type: 'turn.end', blockId: 'e1', status: 'finished' },
  );
}

describe('edits in the transcript', () => {
  it('show one summary line, and the numbered diff one key away', async () => {
    const r = renderApp({ columns: 90, rows: 30 });
    emitEdit(r);
    await settle();
    let f = r.frame();
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(4);
    expect(f).toContain('→ edit prices.py +1 −4');
    expect(f).toContain('Ctrl+O shows the diff');
    expect(f).not.toContain('result = 0');
    await r.type(KEYS.ctrlO);
    f = r.frame();
    expect(f).toContain('Ctrl+O hides the diff');
    // Old and new line numbers: context on both, a removed line on the old side, an added one on the new.
    expect(f).toMatch(/^ {2}3 3 {2}def total\(items\):$/m);
    expect(f).toMatch(/^ {2}4 {3}- {4}result = 0$/m);
    expect(f).toMatch(/^ {4}4 \+ {4}return sum\(item\["price"\] for item in items\)$/m);
    await r.type(KEYS.ctrlO);
    expect(r.frame()).not.toContain('result = 0');
  });

  it('a resumed session shows the counts from the saved result, without a diff to open', async () => {
    const change = changeFromResult('edit_file', 'Edited prices.py (+1 -4).');
    expect(change).toEqual({ verb: 'edit', path: 'prices.py', added: 1, removed: 4 });
    expect(changeFromResult('write_file', 'Created notes.txt (3 lines).')).toEqual({ verb: 'create', path: 'notes.txt', added: 3, removed: 0 });
    const r = renderApp({ columns: 80, rows: 20 });
    r.engine.emit(
      { type: 'turn.start', blockId: 'u1', text: 'x' },
      { type: 'tool.start', blockId: 't1', callId: 'c1', name: 'edit_file', title: 'edit_file prices.py' },
      { type: 'tool.end', blockId: 't1', status: 'ok', summary: 'Edited prices.py', change: change! },
    );
    await settle();
    expect(r.frame()).toContain('→ edit prices.py +1 −4');
    expect(r.frame()).not.toContain('Ctrl+O shows the diff');
  });

  it('a denied edit still says it was denied, once', async () => {
    const r = renderApp({ columns: 80, rows: 20 });
    r.engine.emit(
      { type: 'turn.start', blockId: 'u1', text: 'x' },
      { type: 'tool.start', blockId: 't1', callId: 'c1', name: 'edit_file', title: 'edit_file prices.py' },
      { type: 'tool.end', blockId: 't1', status: 'denied', summary: 'denied: edit prices.py' },
    );
    await settle();
    expect(r.frame()).toContain('⊘ denied: edit prices.py');
    expect(r.frame()).not.toContain('denied: denied');
  });
});

describe('the approval modal', () => {
  it('numbers the diff lines of the file being changed', async () => {
    const r = renderApp({ columns: 90, rows: 30 });
    r.engine.emit({
      type: 'approval.request',
      request: { id: 'ap1', kind: 'write', tool: 'edit_file', path: '/home/dev/shop/prices.py', diff: diff.text, summary: 'edit prices.py (+1 -4)', reason: 'default write=confirm' },
    });
    await settle();
    const f = r.frame();
    expect(f).toMatch(/│3 3 {2}def total\(items\): +│/);
    expect(f).toMatch(/│4 {3}- {4}result = 0 +│/);
    expect(f).toMatch(/│ {2}4 \+ {4}return sum/);
    expect(f).toContain('@@ -1,7 +1,4 @@');
  });
});
