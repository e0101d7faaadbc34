/** PgDn in the modal and in panels moves by what is visible, so no line is skipped on a small screen. */
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/policy/types.js';
import { BUILTIN_SLASH_INFO as SLASH_COMMANDS } from '../../src/slash/builtin-info.js';
import { KEYS, renderApp, settle } from './render-app.js';

const diff = ['--- big.txt', '+++ big.txt', '@@ -0,0 +1,40 @@', ...Array.from({ length: 40 }, (_, i) => `+line ${i}`)].join('\n');
const write: ApprovalRequest = { id: 'ap1', kind: 'write', tool: 'write_file', path: '/p/big.txt', summary: 'create big.txt (+40)', reason: 'default write=confirm', diff };

describe('paging', () => {
  it('shows every diff line on the way down at 40x10', async () => {
    const r = renderApp({ columns: 40, rows: 10 });
    r.engine.emit({ type: 'approval.request', request: write });
    await settle();
    const seen = new Set<number>();
    for (let i = 0; i < 60; i++) {
      for (const m of r.frame().matchAll(/\+line (\d+)/g)) seen.add(Number(m[1]));
      await r.type(KEYS.pageDown);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('shows every /help command on the way down at 40x12', async () => {
    const r = renderApp({ columns: 40, rows: 12 });
    await r.type('/help', KEYS.enter);
    await settle();
    let all = '';
    for (let i = 0; i < 60; i++) {
      all += r.frame();
      await r.type(KEYS.pageDown);
    }
    for (const c of SLASH_COMMANDS) expect(all).toContain(`  ${c.name}`);
  });
});
