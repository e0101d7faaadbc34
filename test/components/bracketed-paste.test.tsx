/** A bracketed paste: its lines stay in the input, and it answers nothing. */
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/policy/types.js';
import { ENTER_SCREEN, LEAVE_SCREEN } from '../../components/terminal/screen.js';
import { KEYS, renderApp, settle } from './render-app.js';

const START = '\x1b[200~';
const END = '\x1b[201~';

describe('bracketed paste', () => {
  it('is switched on with the screen and off when leaving it', () => {
    expect(ENTER_SCREEN).toContain('\x1b[?2004h');
    expect(LEAVE_SCREEN).toContain('\x1b[?2004l');
  });

  it('keeps pasted lines in the input, even the newline at the end, until Enter', async () => {
    const r = renderApp({ columns: 60, rows: 20 });
    await r.type(START, 'def f():\r    return 1\r', END);
    await settle();
    expect(r.engine.submitted).toEqual([]);
    expect(r.frame()).toContain('› def f():');
    expect(r.frame()).toContain('      return 1');
    await r.type('# done', KEYS.enter);
    expect(r.engine.submitted).toEqual(['def f():\n    return 1\n# done']);
  });

  it('does not answer an approval with pasted letters', async () => {
    const request: ApprovalRequest = { id: 'a1', kind: 'bash', tool: 'bash', command: 'rm -rf build', summary: 'run rm -rf build', reason: 'bash=confirm' };
    const r = renderApp({ columns: 60, rows: 20 });
    r.engine.emit({ type: 'approval.request', request });
    await settle();
    await r.type(START, 'y', END);
    await r.type(START, 'yes\r', END);
    expect(r.engine.answers).toEqual([]);
    await r.type('n');
    expect(r.engine.answers).toEqual([{ id: 'a1', decision: 'no' }]);
  });
});

describe('the reason of a no ([t]ell)', () => {
  it('is sent whole when Enter comes before the view has redrawn the typed text', async () => {
    const request: ApprovalRequest = { id: 'a2', kind: 'bash', tool: 'bash', command: 'rm -rf data', summary: 'run rm -rf data', reason: 'bash=confirm' };
    const r = renderApp({ columns: 60, rows: 20 });
    r.engine.emit({ type: 'approval.request', request });
    await settle();
    await r.type('t');
    // Both in one go, as on a busy machine: the field's key handler is still the one of the
    // render before the text arrived.
    r.app.stdin.write('keep the data');
    r.app.stdin.write('\r');
    await settle();
    expect(r.engine.answers).toEqual([{ id: 'a2', decision: 'no', note: 'keep the data' }]);
  });
});
