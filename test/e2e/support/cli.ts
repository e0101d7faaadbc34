/**
 * Running the built CLI as a child process against the fake provider, in a temp project with a
 * temp HOME and XDG dirs. Each test file runs a private copy of dist/ (see snapshotBuild).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { copyFile, cp, link, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startFakeProvider, type FakeFormat, type FakeProvider, type ScriptedReply } from '../../support/fake-provider.js';
import { makeSandbox, type Sandbox } from '../../support/sandbox.js';

export interface Run {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What `start` needs; a test may pass a bare folder with an env of its own. */
export interface Env {
  readonly root: string;
  readonly project: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface Started {
  readonly child: ChildProcess;
  readonly done: Promise<Run>;
  stdout(): string;
  stderr(): string;
}

/**
 * Copies dist/ to a folder of its own, one level below the package root like dist/ (cli.js reads
 * ../package.json), so a rebuild running elsewhere cannot pull files away mid-test. Returns the
 * path of cli.js and the function that removes the copy.
 */
export async function snapshotBuild(): Promise<{ cli: string; remove: () => Promise<void> }> {
  const built = resolve('dist');
  if (!existsSync(join(built, 'cli.js'))) throw new Error('dist/cli.js is missing: run `npm run build` before the e2e tests');
  const dir = await mkdtemp(resolve('.e2e-dist-'));
  // dist/vendor (~30 MB of TypeScript and grammars, never rewritten in place: a build removes and
  // recreates it) is hard-linked rather than copied for every test file.
  await cp(built, dir, { recursive: true, filter: (from) => from !== join(built, 'vendor') });
  await linkTree(join(built, 'vendor'), join(dir, 'vendor'));
  return { cli: join(dir, 'cli.js'), remove: () => rm(dir, { recursive: true, force: true }) };
}

async function linkTree(from: string, to: string): Promise<void> {
  if (!existsSync(from)) return;
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else await link(source, target).catch(() => copyFile(source, target));
  }
}

/**
 * Registers hooks that snapshot the build before the file's tests and remove it after; the
 * returned function gives the snapshot's cli.js (only valid inside a test).
 */
export function useBuild(): () => string {
  let build: Awaited<ReturnType<typeof snapshotBuild>> | undefined;
  beforeAll(async () => {
    build = await snapshotBuild();
  });
  afterAll(async () => {
    await build?.remove();
  });
  return () => {
    if (!build) throw new Error('useBuild: the build snapshot is not ready (used outside a test?)');
    return build.cli;
  };
}

export const PRICES_PY = 'def total(items):\n    result = 0\n    for item in items:\n        result = result + item["price"]\n    return result\n';

/** A sandbox whose project holds prices.py; the CLI gives up at the first provider error. */
export async function makeEnv(format: FakeFormat, baseUrl: string, opts: { codeMap?: boolean; configToml?: string } = {}): Promise<Sandbox> {
  const sandbox = await makeSandbox({ format, baseUrl, ...opts, configToml: `max_retries = 0\n${opts.configToml ?? ''}` });
  await writeFile(join(sandbox.project, 'prices.py'), PRICES_PY);
  return sandbox;
}

/**
 * A fake provider and a sandbox (makeEnv) per test, both closed after it: `setup` starts them
 * with the test's replies, `fake` is the provider that recorded the requests.
 */
export function useFakeEnv(format: FakeFormat): { setup(replies: ScriptedReply[]): Promise<Sandbox>; fake(): FakeProvider } {
  let fake: FakeProvider | undefined;
  let env: Sandbox | undefined;
  afterEach(async () => {
    await fake?.close();
    await env?.cleanup();
    fake = env = undefined;
  });
  return {
    async setup(replies) {
      fake = await startFakeProvider({ format, replies });
      env = await makeEnv(format, fake.baseUrl);
      return env;
    },
    fake() {
      if (!fake) throw new Error('useFakeEnv: setup() has not run in this test');
      return fake;
    },
  };
}

export function start(cli: string, e: Env, args: readonly string[]): Started {
  const child = spawn(process.execPath, [cli, ...args], { cwd: e.project, env: e.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character whose bytes two chunks share must not become two U+FFFD.
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (c: string) => (stdout += c));
  child.stderr!.on('data', (c: string) => (stderr += c));
  const done = new Promise<Run>((res) => child.on('close', (status, signal) => res({ status, signal, stdout, stderr })));
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

export const run = (cli: string, e: Env, args: readonly string[]): Promise<Run> => start(cli, e, args).done;

/** Resolves once `read()` matches: the child's output is the event to wait for, not a timer. */
export function waitFor(read: () => string, pattern: RegExp, child: ChildProcess): Promise<void> {
  return new Promise((res, rej) => {
    const check = (): void => {
      if (pattern.test(read())) {
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        res();
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.on('close', () => rej(new Error(`exited before ${pattern}; output: ${read()}`)));
    check();
  });
}

/** Resolves when `name` exists in `dir` with content (the event, not a poll). */
export function fileAppears(dir: string, name: string): Promise<string> {
  return new Promise((res) => {
    const check = (): void => {
      readFile(join(dir, name), 'utf8').then(
        (text) => {
          if (!text.trim()) return;
          watcher.close();
          res(text.trim());
        },
        () => undefined,
      );
    };
    const watcher = watch(dir, check);
    check();
  });
}
