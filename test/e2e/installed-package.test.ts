/**
 * The packed tarball installed into an empty prefix with dev dependencies omitted, as a user gets
 * it from the registry: only undici is installed beside lindwyrm, so any code still importing a
 * package that became build-time (Ink, React, yargs, TypeScript, the grammars …) fails here. Runs
 * the installed commands: --version, --help, --map (TypeScript and tree-sitter from dist/vendor),
 * the checker's default libraries, a -p turn whose tool asks the checker, and the full screen in
 * tmux with highlighted TypeScript and Python.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { packAndInstall, type PackedInstall } from '../support/packed-install.js';
import { makeSandbox, shellQuote, type Sandbox } from '../support/sandbox.js';
import { hasTmux, until as untilOn } from '../support/tmux.js';
import { readRequest } from '../agent/support/harness.js';

const LIB = 'export function priceOf(n: number): number {\n  return n * 2;\n}\n';
const APP = "import { priceOf } from './lib.js';\n\nexport function total(items: number[]): number {\n  return items.reduce((s, n) => s + priceOf(n), 0);\n}\n";
const PY = 'class Basket:\n    def weigh(self, items):\n        return len(items)\n';
const ANSWER = 'Here it is:\n\n```ts\nconst answer: number = 42;\n```\n\n```python\ndef shipped():\n    return True\n```\n\nDone with the install.';

// Real processes from a real install, on a machine that may be busy.
vi.setConfig({ testTimeout: 120_000 });

/** The same question, worded eight ways. */
const ASKS = [{}, { file: 'lib.ts' }, { line: 1 }, { file: 'lib.ts', line: 1 }].flatMap((extra) => [{ name: 'priceOf', ...extra }, { name: 'priceOf', ...extra }]);

let install: PackedInstall;
let fake: FakeProvider;
let sandbox: Sandbox;

function run(bin: string, args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const env = { ...sandbox.env, CI: '1' };
    execFile(bin, args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}

beforeAll(async () => {
  install = await packAndInstall();
  fake = await startFakeProvider({
    format: 'anthropic',
    replies: (req) => {
      const text = JSON.stringify(req.body);
      if (!text.includes('who calls priceOf')) return { text: ANSWER };
      // The checker answers once it has loaded (the tool says "partial" before that, and the
      // checker goes on): ask again, a little later, until it does — in other words each time,
      // as the loop detector stops a third identical call.
      const results = readRequest('anthropic', req).messages.flatMap((m) => m.toolResults);
      const last = results.at(-1)?.content ?? '';
      if (results.length > 0 && (!/partial/.test(last) || results.length >= ASKS.length)) return { text: 'priceOf is called from total.' };
      return { toolCalls: [{ name: 'find_references', input: ASKS[results.length] }], delayMs: results.length > 0 ? 3000 : 0 };
    },
  });
  sandbox = await makeSandbox({ format: 'anthropic', baseUrl: fake.baseUrl, codeMap: true });
  await writeFile(join(sandbox.project, 'lib.ts'), LIB);
  await writeFile(join(sandbox.project, 'app.ts'), APP);
  await writeFile(join(sandbox.project, 'basket.py'), PY);
}, 300_000);

afterAll(async () => {
  await fake?.close();
  await sandbox?.cleanup();
  await install?.remove();
});

describe('the installed package (npm pack, npm install -g --omit=dev into an empty prefix)', () => {
  it('installs lindwyrm and undici, nothing else', () => {
    expect(install.packages).toEqual(['lindwyrm', 'undici']);
  });

  it('answers --version and --help from both commands', async () => {
    const { version } = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version: string };
    for (const bin of [install.bin.lwyrm, install.bin.lindwyrm]) {
      const v = await run(bin, ['--version'], sandbox.project);
      expect(v.stdout.trim()).toBe(version);
    }
    const help = await run(install.bin.lwyrm, ['--help'], sandbox.project);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: lwyrm/);
    const bad = await run(install.bin.lwyrm, ['--no-such-flag'], sandbox.project);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown option --no-such-flag');
  });

  it('prints the code map: TypeScript and the Python grammar load from dist/vendor', async () => {
    const map = await run(install.bin.lwyrm, ['--map'], sandbox.project);
    expect(map.stderr).toBe('');
    expect(map.stdout).toContain('priceOf');
    expect(map.stdout).toContain('total');
    expect(map.stdout).toContain('Basket');
    expect(map.stdout).toContain('weigh');
  });

  it("ships the checker's default libraries next to the vendored compiler", () => {
    const script = `
      const ts = require(${JSON.stringify(join(install.packageDir, 'dist', 'vendor', 'typescript', 'typescript.js'))});
      const program = ts.createProgram([${JSON.stringify(join(sandbox.project, 'app.ts'))}], { strict: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] });
      const problems = [...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics()].map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
      console.log(JSON.stringify({ lib: ts.getDefaultLibFilePath({}), problems }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: sandbox.root })) as { lib: string; problems: string[] };
    expect(out.lib.startsWith(install.packageDir)).toBe(true);
    expect(out.problems).toEqual([]);
  });

  it('runs a -p turn against the fake provider, with a tool answered by the checker', async () => {
    const turn = await run(install.bin.lwyrm, ['-p', 'who calls priceOf?'], sandbox.project);
    expect(turn.stderr).not.toMatch(/error|cannot find/i);
    expect(turn.code).toBe(0);
    expect(turn.stdout).toContain('priceOf is called from total.');
    const last = fake.requests.map((r) => readRequest('anthropic', r).messages.flatMap((m) => m.toolResults)).at(-1)?.at(-1)?.content ?? '';
    // The checker's answer (not the syntax index's): the call in app.ts, nothing partial.
    expect(last).toContain('app.ts');
    expect(last).not.toMatch(/partial/);
  });
});

describe.skipIf(!hasTmux)('the installed package in a real terminal (tmux)', () => {
  const SOCKET = `lwyrm-installed-${process.pid}`;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
  const screen = (): string => tmux('capture-pane', '-p', '-t', 'lw');
  const until = (what: string, check: () => boolean): Promise<void> => untilOn(what, check, screen);

  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
  });

  it('shows the full screen, answers, highlights TypeScript and Python, and leaves on Ctrl+C twice', async () => {
    // Ink stops live rendering when CI is set: unset it for the child.
    const command = `env -u CI ${sandbox.shellEnv} PATH=${shellQuote(process.env['PATH'] ?? '')} TERM=xterm-256color ${shellQuote(install.bin.lwyrm)}; echo "__EXIT=$?"; sleep 600`;
    tmux('new-session', '-d', '-s', 'lw', '-x', '100', '-y', '30', '-c', sandbox.project, command);
    await until('the header', () => /lindwyrm\s+fake \(anthropic, fake-model\)/.test(screen()));
    tmux('send-keys', '-t', 'lw', '-l', 'show me some code');
    tmux('send-keys', '-t', 'lw', 'Enter');
    await until('the answer', () => screen().includes('Done with the install.'));
    // Highlighted once each highlighter has loaded (TypeScript's scanner, the Python grammar): the
    // keyword gets a colour of its own, the plain name after it none (code is not one colour).
    const highlighted = (line: string, keyword: string, plain: string): boolean => {
      const sgr = String.raw`(?:\x1b\[[0-9;]*m)*`;
      const colour = String.raw`\x1b\[(?:[0-9;]*;)?3[1-8]m`;
      const rows = tmux('capture-pane', '-p', '-e', '-t', 'lw').split('\n');
      // eslint-disable-next-line no-control-regex -- the escapes are what is read here
      const row = rows.find((l) => l.replace(/\x1b\[[0-9;]*m/g, '').includes(line)) ?? '';
      return new RegExp(`${colour}${sgr}${keyword}\\b`).test(row) && !new RegExp(`${colour}${sgr}\\s*${plain}`).test(row);
    };
    await until('TypeScript highlighted', () => highlighted('const answer: number = 42;', 'const', 'answer'));
    await until('Python highlighted', () => highlighted('def shipped():', 'def', String.raw`\(\):`));
    tmux('send-keys', '-t', 'lw', 'C-c');
    tmux('send-keys', '-t', 'lw', 'C-c');
    await until('the exit', () => /__EXIT=0/.test(screen()));
  });
});
