/**
 * The view's own terminal behaviour in tmux, over a scripted engine (test/tui/fake-session.tsx):
 * resizing re-lays the screen out cleanly, and SIGTERM or a crash still restore the normal screen.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, until as untilOn, endServer } from '../support/tmux.js';

// A tmux server per test: a new session right after kill-server can race the old server's exit.
let run = 0;
const socket = (): string => `lwyrm-exit-${process.pid}-${run}`;
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket(), ...args], { encoding: 'utf8' });
const screen = (): string => tmux('capture-pane', '-p', '-t', 'fs');
const alternate = (): string => tmux('display-message', '-p', '-t', 'fs', '#{alternate_on}').trim();

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> =>
  untilOn(what, check, screen, timeoutMs);

const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

async function startFakeSession(env: Record<string, string>): Promise<{ pidFile: string; dir: string }> {
  run += 1;
  const dir = await mkdtemp(join(tmpdir(), 'lw-fs-'));
  const pidFile = join(dir, 'pid');
  const vars = Object.entries({ ...env, FAKE_PID_FILE: pidFile })
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ');
  const cmd = `env -u CI ${vars} ${q(process.execPath)} --import tsx ${q(resolve('test/tui/fake-session.tsx'))}; echo "__EXIT=$?"; sleep 600`;
  tmux('new-session', '-d', '-s', 'fs', '-x', '100', '-y', '30', '-c', resolve('.'), cmd);
  await until('the header', () => screen().startsWith('lindwyrm'));
  return { pidFile, dir };
}

describe.skipIf(!hasTmux)('the full screen in tmux', () => {
  let dir: string | undefined;
  afterEach(async () => {
    await endServer(tmux);
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('re-lays everything out on resize, with nothing left over from the old size', async () => {
    ({ dir } = await startFakeSession({ FAKE_LINES: '100' }));
    tmux('resize-window', '-t', 'fs', '-x', '60', '-y', '18');
    const rowsOf = (): string[] => screen().replace(/\n+$/, '').split('\n');
    const laidOut = (rows: number) => () => {
      const lines = rowsOf();
      return lines.length === rows && /^lindwyrm/.test(lines[0]!) && /^› ask/.test(lines.at(-1)!);
    };
    await until('the small layout', laidOut(18));
    const small = rowsOf();
    expect(small).toHaveLength(18);
    expect(small[0]).toMatch(/^lindwyrm/);
    expect(small.at(-1)).toMatch(/^› ask, or \/help/);
    expect(small.filter((l) => l.includes('· compaction at '))).toHaveLength(1);
    expect(small.join('\n')).toContain('history line 100');

    tmux('resize-window', '-t', 'fs', '-x', '120', '-y', '40');
    await until('the large layout', laidOut(40));
    const large = rowsOf();
    expect(large[0]).toMatch(/^lindwyrm/);
    expect(large.at(-1)).toMatch(/^› ask, or \/help/);
    expect(large.filter((l) => l.startsWith('lindwyrm'))).toHaveLength(1);
    // Rows are contiguous: the history counts up without gaps or repeats.
    const numbers = large.map((l) => /^history line (\d+)$/.exec(l)?.[1]).filter(Boolean).map(Number);
    expect(numbers.length).toBeGreaterThan(25);
    numbers.forEach((n, i) => i > 0 && expect(n).toBe(numbers[i - 1]! + 1));
  }, 120_000);

  it('restores the normal screen on SIGTERM', async () => {
    let pidFile: string;
    ({ dir, pidFile } = await startFakeSession({}));
    expect(alternate()).toBe('1');
    process.kill(Number(await readFile(pidFile, 'utf8')), 'SIGTERM');
    await until('the exit', () => screen().includes('__EXIT='));
    expect(screen()).toContain('__EXIT=143');
    expect(alternate()).toBe('0');
  }, 120_000);

  it('restores the normal screen and reports the error after a crash', async () => {
    ({ dir } = await startFakeSession({ FAKE_CRASH_MS: '1500' }));
    await until('the exit', () => screen().includes('__EXIT='));
    expect(screen()).toContain('__EXIT=1');
    expect(screen()).toContain('lwyrm: simulated crash');
    expect(alternate()).toBe('0');
  }, 120_000);
});
