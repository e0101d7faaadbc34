/**
 * /export through the real engine. Without a file: lindwyrm's own data — under the data dir, never
 * into the project, 0600 in a private folder, written without a question and recorded in the audit
 * log. With a file: a write like any other, which the policy judges (asked about when writes are
 * confirmed, refused under --read-only) and the audit log records.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
import { appPaths } from '../../src/config/paths.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, type Sandbox } from './support/harness.js';

const PRICES = 'def total(items):\n    return 0\n';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;

afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = undefined;
  fake = undefined;
});

const EDIT_REPLIES = [
  { toolCalls: [{ name: 'edit_file', input: { path: 'prices.py', old_string: '    return 0\n', new_string: '    return sum(items)\n' } }] },
  { text: '## Done\n\nRewrote **total()**.' },
];

async function open(cli: Partial<CliOptions>, toml = '', replies: Parameters<typeof startFakeProvider>[0]['replies'] = EDIT_REPLIES): Promise<LindwyrmEngine> {
  fake = await startFakeProvider({ format: 'anthropic', replies });
  sandbox = await makeSandbox('anthropic', fake.baseUrl, toml);
  await writeFile(join(sandbox.project, 'prices.py'), PRICES);
  const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  engine = await assembleSession(cliOptions(config.projectRoot, { allow: ['write'], ...cli }), config, {
    createTools: (opts) => createToolRegistry(opts),
    env: sandbox.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
  });
  return engine;
}

type AuditLine = Record<string, unknown>;

async function auditLines(e: LindwyrmEngine): Promise<AuditLine[]> {
  return (await readFile(e.runtime.config.auditLog!, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as AuditLine);
}

/** Answers every approval with `answer`, and counts them. */
function answering(e: LindwyrmEngine, answer: 'yes' | 'no'): string[] {
  const asked: string[] = [];
  e.subscribe(() => {
    const pending = e.getSnapshot().pendingApproval;
    if (pending && !asked.includes(pending.id)) {
      asked.push(pending.id);
      e.answer(pending.id, answer);
    }
  });
  return asked;
}

it('by default writes under the data dir, not into the project, private, without asking, into the audit log', async () => {
  // Writes are confirmed: a write into the project would ask; lindwyrm's own data does not.
  // The sandbox's start-up hint (a notice) would sit in turn 1; the layout asserted here is the export's.
  const e = await open({ allow: [] }, 'audit_log = "audit.jsonl"\nsandbox = "off"');
  const asked = answering(e, 'yes');
  await e.submit('rewrite total()');
  const before = await readdir(sandbox!.project);
  const approvalsForTurn = asked.length;
  const result = await e.runSlash('/export');
  const exportsDir = join(appPaths(sandbox!.env).dataDir, 'exports');
  const path = join(exportsDir, `${e.runtime.session.id}.md`);
  expect(result.error).toBeUndefined();
  expect(result.output).toBe(`Transcript written to ${path}`);
  expect(asked).toHaveLength(approvalsForTurn);
  expect(await readdir(sandbox!.project)).toEqual(before);
  expect((await stat(path)).mode & 0o777).toBe(0o600);
  expect((await stat(exportsDir)).mode & 0o777).toBe(0o700);
  const md = await readFile(path, 'utf8');
  expect(md).toContain('## Turn 1\n\n### You\n\nrewrite total()\n\n### lindwyrm\n');
  // The real edit's diff, folded and numbered; the answer's own heading moved below the export's.
  expect(md).toMatch(/<details>\n<summary>edit prices\.py \+1 −1<\/summary>\n\n```diff\n[\s\S]*-2 {3}│ {5}return 0\n\+ {2}2 │ {5}return sum\(items\)\n/);
  expect(md).toContain('#### Done\n\nRewrote **total()**.');
  const exportLines = (await auditLines(e)).filter((l) => l['tool'] === '/export');
  expect(exportLines.map((l) => [l['event'], l['decision'] ?? l['status'], l['target']])).toEqual([
    ['decision', 'allow', path],
    ['outcome', 'ok', path],
  ]);
});

it('by default still writes under --read-only: that guards the project, not lindwyrm\'s data', async () => {
  const e = await open({ readOnly: true });
  const result = await e.runSlash('/export');
  const path = join(appPaths(sandbox!.env).dataDir, 'exports', `${e.runtime.session.id}.md`);
  expect(result.output).toBe(`Transcript written to ${path}`);
  expect(await readFile(path, 'utf8')).toContain(`# lindwyrm session ${e.runtime.session.id}`);
});

it('writes the file named into the project, from the project root, and says where', async () => {
  const e = await open({});
  await e.submit('rewrite total()');
  const result = await e.runSlash('/export out/../notes.md');
  const path = join(sandbox!.project, 'notes.md');
  expect(result.output).toBe(`Transcript written to ${path}`);
  const md = await readFile(path, 'utf8');
  expect(md).toContain('## Turn 1\n\n### You\n\nrewrite total()');
  expect(md).toContain('<summary>edit prices.py +1 −1</summary>');
  expect(md).toContain('Rewrote **total()**.');
});

it('has every line of a multi-line command, not just the first', async () => {
  const script = [...Array.from({ length: 40 }, (_, i) => `echo step ${i + 1}`), 'echo last-line-of-the-script'].join('\n');
  const e = await open({ allow: ['write', 'bash'] }, 'sandbox = "off"', [{ toolCalls: [{ name: 'bash', input: { command: script } }] }, { text: 'Ran it.' }]);
  await e.submit('run the script');
  await e.runSlash('/export notes.md');
  const md = await readFile(join(sandbox!.project, 'notes.md'), 'utf8');
  expect(md).toContain(`\`\`\`sh\n${script}\n\`\`\``);
  expect(md).toContain('step 40\nlast-line-of-the-script');
});

it('asks before writing a file named when writes are confirmed, and writes nothing when told no', async () => {
  const e = await open({ allow: [] });
  const asked = answering(e, 'no');
  const result = await e.runSlash('/export notes.md');
  expect(asked).toHaveLength(1);
  expect(result.error).toBe(true);
  expect(result.output).toMatch(/declined/);
  await expect(readFile(join(sandbox!.project, 'notes.md'), 'utf8')).rejects.toThrow();
});

it('refuses a file named under --read-only, and both the decision and the outcome are in the audit log', async () => {
  const e = await open({ readOnly: true }, 'audit_log = "audit.jsonl"');
  const result = await e.runSlash('/export notes.md');
  expect(result.error).toBe(true);
  expect(result.output).toMatch(/read-only/);
  await expect(readFile(join(sandbox!.project, 'notes.md'), 'utf8')).rejects.toThrow();
  const lines = await auditLines(e);
  expect(lines.map((l) => [l['event'], l['decision'] ?? l['status']])).toEqual([
    ['decision', 'deny'],
    ['outcome', 'denied'],
  ]);
  expect(lines[1]!['target']).toBe(join(sandbox!.project, 'notes.md'));
});
