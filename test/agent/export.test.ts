/**
 * /export writes through the engine: the transcript as Markdown, as a write the policy judges
 * (asked about when writes are confirmed, refused under --read-only) and the audit log records.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
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
  { text: 'Rewrote **total()**.' },
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

it('writes the transcript as Markdown into the project, and says where', async () => {
  const e = await open({});
  await e.submit('rewrite total()');
  const result = await e.runSlash('/export notes.md');
  const path = join(sandbox!.project, 'notes.md');
  expect(result.output).toBe(`Transcript written to ${path}`);
  const md = await readFile(path, 'utf8');
  expect(md).toContain('## You\n\nrewrite total()');
  expect(md).toContain('- `edit_file prices.py` — ok: Edited prices.py');
  expect(md).toContain('Rewrote **total()**.');
});

it('has every line of a multi-line command, not just the first', async () => {
  const script = [...Array.from({ length: 40 }, (_, i) => `echo step ${i + 1}`), 'echo last-line-of-the-script'].join('\n');
  const e = await open({ allow: ['write', 'bash'] }, '', [{ toolCalls: [{ name: 'bash', input: { command: script } }] }, { text: 'Ran it.' }]);
  await e.submit('run the script');
  await e.runSlash('/export notes.md');
  const md = await readFile(join(sandbox!.project, 'notes.md'), 'utf8');
  expect(md).toContain(`\`\`\`\n${script}\n\`\`\``);
  expect(md).toContain('step 40\nlast-line-of-the-script');
});

it('asks before writing when writes are confirmed, and writes nothing when told no', async () => {
  const e = await open({ allow: [] });
  const asked: string[] = [];
  e.subscribe(() => {
    const pending = e.getSnapshot().pendingApproval;
    if (pending && !asked.includes(pending.id)) {
      asked.push(pending.id);
      e.answer(pending.id, 'no');
    }
  });
  const result = await e.runSlash('/export');
  expect(asked).toHaveLength(1);
  expect(result.error).toBe(true);
  expect(result.output).toMatch(/declined/);
  await expect(readFile(join(sandbox!.project, `lindwyrm-${e.runtime.session.id}.md`), 'utf8')).rejects.toThrow();
});

it('is refused under --read-only, and both the decision and the outcome are in the audit log', async () => {
  const e = await open({ readOnly: true }, 'audit_log = "audit.jsonl"');
  const result = await e.runSlash('/export notes.md');
  expect(result.error).toBe(true);
  expect(result.output).toMatch(/read-only/);
  await expect(readFile(join(sandbox!.project, 'notes.md'), 'utf8')).rejects.toThrow();
  const lines = (await readFile(e.runtime.config.auditLog!, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines.map((l) => [l['event'], l['decision'] ?? l['status']])).toEqual([
    ['decision', 'deny'],
    ['outcome', 'denied'],
  ]);
  expect(lines[1]!['target']).toBe(join(sandbox!.project, 'notes.md'));
});
