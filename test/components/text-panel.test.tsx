/** Panels (/help, /policy …): every line reachable, wrapped lines readable, scrolling bounded. */
import { describe, expect, it } from 'vitest';
import { KEYS, renderApp, settle } from './render-app.js';

async function openHelp(columns: number, rows: number) {
  const r = renderApp({ columns, rows });
  await r.type('/help', KEYS.enter);
  await settle();
  return r;
}

describe('text panel', () => {
  it('scrolled to the end, shows the last line of the text', async () => {
    const r = await openHelp(60, 15);
    for (let i = 0; i < 30; i++) await r.type(KEYS.pageDown);
    const f = r.frame();
    expect(f).toContain('quit the turn');
    expect(f).toContain('0 more below');
  });

  it('continues a wrapped description under its column, not under the command names', async () => {
    const r = await openHelp(80, 40);
    const lines = r.frame().split('\n');
    const model = lines.findIndex((l) => l.includes('/model [preset]'));
    const column = lines[model]!.indexOf('switch to');
    expect(lines[model + 1]!.slice(0, column).replace('│', '').trim()).toBe('');
    expect(lines[model + 1]!.slice(column).trim()).not.toBe('');
  });

  it('PgUp after paging past the end moves up at once', async () => {
    const r = await openHelp(60, 15);
    for (let i = 0; i < 30; i++) await r.type(KEYS.pageDown);
    const atEnd = r.frame();
    await r.type(KEYS.up);
    expect(r.frame()).not.toBe(atEnd);
    expect(r.frame()).toContain('1 more below');
  });
});

describe('text panel and prompts', () => {
  it('closes when a prompt is sent, so its answer is not hidden behind the panel', async () => {
    const r = await openHelp(80, 24);
    expect(r.frame()).toContain('Esc closes');
    await r.type('what does prices.py do?', KEYS.enter);
    await settle();
    expect(r.engine.submitted).toEqual(['what does prices.py do?']);
    expect(r.frame()).not.toContain('Esc closes');
    expect(r.frame()).toContain('you › what does prices.py do?');
  });
});
