/**
 * A new session's first save is readied while the input is idle: in a real terminal (tmux, the
 * built CLI, the fake provider) the session's lock is on disk before any prompt, with no index;
 * at Enter the prompt is saved before its request reaches the provider (a process killed then
 * still leaves it to resume); a session left without a prompt lets its lock go; and the lock of a
 * session killed before its first prompt is swept by a later run once it is an hour old.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasTmux, until as untilOn, endServer } from '../support/tmux.js';
import { useBuild } from '../e2e/support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';

vi.setConfig({ testTimeout: 90_000 });

const SOCKET = `lwyrm-first-save-${process.pid}`;
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
const screen = (): string => tmux('capture-pane', '-p', '-t', 'lw');
const until = (what: string, check: () => boolean | Promise<boolean>): Promise<void> => untilOn(what, check, screen);

/** The project's session folder's file names (one project per sandbox). */
function sessionFiles(root: string): string[] {
  const dir = join(root, 'data', 'lindwyrm', 'sessions');
  try {
    return readdirSync(dir).flatMap((project) => readdirSync(join(dir, project)).map((name) => join(project, name)));
  } catch {
    return [];
  }
}

describe.skipIf(!hasTmux)('a new session readies its first save while the input is idle', () => {
  const cli = useBuild();
  let fake: FakeProvider | undefined;
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await endServer(tmux);
    await fake?.close();
    await sandbox?.cleanup();
    fake = sandbox = undefined;
  });

  const start = (): void => {
    const command = `env -u CI ${sandbox!.shellEnv} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(cli())}; echo "__EXIT=$?"; sleep 600`;
    tmux('new-session', '-d', '-s', 'lw', '-x', '100', '-y', '30', '-c', sandbox!.project, command);
  };
  const lwyrmPid = (): number => {
    const pane = tmux('display', '-p', '-t', 'lw', '#{pane_pid}').trim();
    return Number(execFileSync('pgrep', ['-P', pane], { encoding: 'utf8' }).trim().split('\n')[0]);
  };
  const locked = (root: string): boolean => {
    const names = sessionFiles(root);
    return names.some((n) => n.endsWith('.lock')) && !names.some((n) => n.endsWith('.meta.json'));
  };

  it('holds the lock before the first prompt, saves the prompt before its request, and lets the lock go at exit', async () => {
    // What was on disk when the request arrived: the index must already hold the prompt.
    let atRequest: string[] = [];
    fake = await startFakeProvider({
      format: 'anthropic',
      replies: () => {
        atRequest = sessionFiles(sandbox!.root).filter((n) => n.endsWith('.meta.json') || n.endsWith('.jsonl')).map((n) => readFileSync(join(sandbox!.root, 'data', 'lindwyrm', 'sessions', n), 'utf8'));
        return { text: 'Noted the first prompt.' };
      },
    });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl });
    start();
    await until('the lock of the session, with no index yet', () => locked(sandbox!.root));
    expect(sessionFiles(sandbox!.root).filter((n) => !n.endsWith('.lock'))).toEqual([]);
    tmux('send-keys', '-t', 'lw', '-l', 'remember the word heliotrope');
    await until('the prompt in the input', () => screen().includes('heliotrope'));
    tmux('send-keys', '-t', 'lw', 'Enter');
    await until('the answer', () => screen().includes('Noted the first prompt.'));
    expect(atRequest.some((text) => text.includes('remember the word heliotrope'))).toBe(true);
    tmux('send-keys', '-t', 'lw', 'C-c');
    tmux('send-keys', '-t', 'lw', 'C-c');
    await until('the exit', () => screen().includes('__EXIT=0'));
    const names = sessionFiles(sandbox!.root);
    expect(names.some((n) => n.endsWith('.meta.json'))).toBe(true);
    expect(names.filter((n) => n.endsWith('.lock'))).toEqual([]);
  });

  it('a session left at once lets its lock go; one killed before its first prompt leaves a lock a later run sweeps after an hour', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: () => ({ text: 'ok' }) });
    sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl });
    start();
    await until('the lock', () => locked(sandbox!.root));
    tmux('send-keys', '-t', 'lw', 'C-c');
    tmux('send-keys', '-t', 'lw', 'C-c');
    await until('the exit', () => screen().includes('__EXIT='));
    expect(sessionFiles(sandbox!.root)).toEqual([]);
    await endServer(tmux);

    start();
    await until('the lock', () => locked(sandbox!.root));
    process.kill(lwyrmPid(), 'SIGKILL');
    await until('the exit', () => screen().includes('__EXIT='));
    const [orphan] = sessionFiles(sandbox!.root);
    expect(orphan).toMatch(/\.lock$/);
    const path = join(sandbox!.root, 'data', 'lindwyrm', 'sessions', orphan!);
    // Not a synchronous spawn: the fake provider answers from this process's event loop.
    const run = (): Promise<unknown> => promisify(execFile)(process.execPath, [cli(), '-p', 'hello'], { cwd: sandbox!.project, env: sandbox!.env });
    // Young: it may be a session that is starting right now.
    await run();
    expect(sessionFiles(sandbox!.root)).toContain(orphan);
    const old = new Date(Date.now() - 2 * 3_600_000);
    await utimes(path, old, old);
    await run();
    expect(sessionFiles(sandbox!.root)).not.toContain(orphan);
    // The two one-shot sessions are saved, and hold no lock now.
    const dir = join(sandbox!.root, 'data', 'lindwyrm', 'sessions');
    const project = (await readdir(dir))[0]!;
    expect((await readdir(join(dir, project))).filter((n) => n.endsWith('.meta.json'))).toHaveLength(2);
    expect((await readdir(join(dir, project))).filter((n) => n.endsWith('.lock'))).toEqual([]);
  });
});
