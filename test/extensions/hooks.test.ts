/**
 * Hooks through a real session: the real tools, the real model client over HTTP to the fake
 * provider, hook commands run as real processes from the user's config file.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleSession } from '../../src/agent/assemble-session.js';
import type { LindwyrmEngine } from '../../src/agent/engine.js';
import type { CliOptions } from '../../src/cli/options.js';
import { loadConfig } from '../../src/config/load-config.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { startFakeProvider, type FakeProvider, type ScriptedReply } from '../support/fake-provider.js';
import { cliOptions, makeSandbox, readRequest, type Sandbox } from '../agent/support/harness.js';

let fake: FakeProvider | undefined;
let sandbox: Sandbox | undefined;
let engine: LindwyrmEngine | undefined;
/** Hook scripts the next `open` writes into the project's .claude/hooks/, as Claude Code projects keep them. */
let scripts: { name: string; body: string }[] = [];

afterEach(async () => {
  await engine?.dispose();
  await fake?.close();
  await sandbox?.cleanup();
  engine = undefined;
  scripts = [];
});

/** A TOML basic string. */
const q = (s: string): string => JSON.stringify(s);

async function open(replies: ScriptedReply[], toml: string, cli: Partial<CliOptions> = {}) {
  fake = await startFakeProvider({ format: 'anthropic', replies });
  sandbox = await makeSandbox('anthropic', fake.baseUrl, toml);
  await mkdir(join(sandbox.project, '.claude', 'hooks'), { recursive: true });
  for (const { name, body } of scripts) await writeFile(join(sandbox.project, '.claude', 'hooks', name), body, { mode: 0o755 });
  const config = await loadConfig({ cwd: sandbox.project, env: sandbox.env });
  engine = await assembleSession(cliOptions(config.projectRoot, { allow: ['write', 'bash'], ...cli }), config, {
    createTools: (opts) => createToolRegistry(opts),
    describe: describeToolCall,
    env: sandbox.env,
    clientOptions: { retryBaseMs: 1, maxRetries: 0 },
  });
  return engine;
}

/**
 * A hook script for the next `open`; returns its command line, which finds it the way Claude Code
 * settings do, through CLAUDE_PROJECT_DIR. (In the project: the command sandbox, where there is
 * one, gives hooks a private /tmp.)
 */
function script(name: string, body: string): string {
  scripts.push({ name, body });
  return `node "$CLAUDE_PROJECT_DIR/.claude/hooks/${name}"`;
}

const requestText = (i: number) =>
  readRequest('anthropic', fake!.requests[i]!).messages.map((m) => `${m.text}${m.toolResults.map((r) => r.content).join('')}`).join('\n');
const notices = (e: LindwyrmEngine) => e.store.current().blocks.flatMap((b) => (b.kind === 'notice' ? [b.text] : []));

describe('hooks', () => {
  it('a PreToolUse hook that exits 2 refuses the call, and the model gets its stderr as the reason', async () => {
    const e = await open(
      [{ toolCalls: [{ name: 'bash', input: { command: 'touch made-by-bash' } }] }, { text: 'Understood.' }],
      `[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = ${q("echo 'touching files is not allowed here' >&2; exit 2")}\n`,
    );
    const outcome = await e.submit('make a file');
    expect(outcome.status).toBe('finished');
    expect(existsSync(join(sandbox!.project, 'made-by-bash'))).toBe(false);
    // Only the hook's stderr follows (a machine's shell start-up may add its own lines to it).
    expect(requestText(1)).toMatch(/a PreToolUse hook refused this call: [^]*touching files is not allowed here/);
    expect(e.store.current().blocks.find((b) => b.kind === 'tool')).toMatchObject({ status: 'denied' });
  });

  it('a matcher that names other tools leaves the call alone; exit 1 is reported and ignored', async () => {
    const e = await open(
      [{ toolCalls: [{ name: 'bash', input: { command: 'touch made-by-bash' } }] }, { text: 'Done.' }],
      `[[hooks.PreToolUse]]\nmatcher = "Edit|Write"\ncommand = "exit 2"\n\n[[hooks.PreToolUse]]\nmatcher = "bash"\ncommand = ${q('echo "lint broke" >&2; exit 1')}\n`,
    );
    await e.submit('make a file');
    expect(existsSync(join(sandbox!.project, 'made-by-bash'))).toBe(true);
    expect(notices(e).join('\n')).toMatch(/PreToolUse hook `echo "lint broke" >&2; exit 1` exited with 1: (.* \/ )?lint broke; ignored/);
    expect(requestText(1)).not.toContain('lint broke');
  });

  it('a PostToolUse formatter rewrites the file the edit wrote; a Claude Code-style script reads the JSON unchanged', async () => {
    // A Claude Code formatter hook: read stdin whole, take tool_input.file_path, rewrite the file.
    const formatter = script(
      'format.mjs',
      `import { readFileSync, writeFileSync } from 'node:fs';
const event = JSON.parse(readFileSync(0, 'utf8'));
writeFileSync(process.env.CLAUDE_PROJECT_DIR + '/seen.json', JSON.stringify({ event, dir: process.env.CLAUDE_PROJECT_DIR }));
const file = event.tool_input.file_path;
writeFileSync(file, readFileSync(file, 'utf8').replace(/ +/g, ' ').replace(/ \\n/g, '\\n').toUpperCase());
`,
    );
    const e = await open(
      [{ toolCalls: [{ id: 'toolu_w1', name: 'write_file', input: { path: 'src/a.txt', content: 'hello   world   \n' } }] }, { text: 'Written.' }],
      `[[hooks.PostToolUse]]\nmatcher = "Edit|Write"\ncommand = ${q(formatter)}\n`,
    );
    await e.submit('write it');
    expect(await readFile(join(sandbox!.project, 'src', 'a.txt'), 'utf8')).toBe('HELLO WORLD\n');
    const { event, dir } = JSON.parse(await readFile(join(sandbox!.project, 'seen.json'), 'utf8'));
    const root = e.runtime.config.projectRoot;
    expect(dir).toBe(root);
    expect(event).toMatchObject({
      session_id: e.runtime.session.id,
      cwd: root,
      permission_mode: 'default',
      hook_event_name: 'PostToolUse',
      tool_name: 'write_file',
      tool_use_id: 'toolu_w1',
      tool_input: { path: 'src/a.txt', file_path: join(root, 'src', 'a.txt'), content: 'hello   world   \n' },
      tool_response: { success: true, filePath: join(root, 'src', 'a.txt') },
    });
    expect(typeof event.transcript_path).toBe('string');
  });

  it('a PostToolUse hook that exits 2 tells the model (the call already ran); a JSON answer adds context', async () => {
    const e = await open(
      [{ toolCalls: [{ name: 'bash', input: { command: 'echo ran' } }] }, { text: 'Noted.' }],
      `[[hooks.PostToolUse]]\ncommand = ${q('echo "the build is red now" >&2; exit 2')}\n\n[[hooks.PostToolUse]]\ncommand = ${q(
        `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember the changelog"}}'`,
      )}\n`,
    );
    await e.submit('run it');
    const text = requestText(1);
    expect(text).toContain('ran');
    expect(text).toMatch(/\[PostToolUse hook output\]\n[^]*the build is red now/);
    // The first hook blocked: the second one did not run.
    expect(text).not.toContain('remember the changelog');
  });

  it('a PreToolUse JSON answer can deny, and updatedInput rewrites the arguments before the tool checks them', async () => {
    const rewrite = script(
      'rewrite.mjs',
      `import { readFileSync } from 'node:fs';
const e = JSON.parse(readFileSync(0, 'utf8'));
if (e.tool_input.command.includes('forbidden')) {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no forbidden things' } }));
} else {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { ...e.tool_input, command: 'echo rewritten-by-hook' } } }));
}
`,
    );
    const e = await open(
      [
        {
          toolCalls: [
            { name: 'bash', input: { command: 'echo forbidden > f.txt' } },
            { name: 'bash', input: { command: 'echo original' } },
          ],
        },
        { text: 'Ok.' },
      ],
      `[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = ${q(rewrite)}\n`,
    );
    await e.submit('go');
    const text = requestText(1);
    expect(text).toContain('refused this call: no forbidden things');
    expect(text).toContain('rewritten-by-hook');
    expect(text).not.toContain('original');
    expect(existsSync(join(sandbox!.project, 'f.txt'))).toBe(false);
  });

  it('a hook past its timeout_ms is killed, reported and ignored', async () => {
    const e = await open(
      [{ toolCalls: [{ name: 'bash', input: { command: 'touch after-slow-hook' } }] }, { text: 'Done.' }],
      `[[hooks.PreToolUse]]\ncommand = "sleep 30; exit 2"\ntimeout_ms = 300\n`,
    );
    const started = Date.now();
    await e.submit('go');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(existsSync(join(sandbox!.project, 'after-slow-hook'))).toBe(true);
    expect(notices(e).join('\n')).toContain('timed out after 300 ms (timeout_ms)');
  });

  it('UserPromptSubmit: exit 2 keeps the prompt from the model; stdout of exit 0 joins the prompt', async () => {
    const gate = script(
      'gate.mjs',
      `import { readFileSync } from 'node:fs';
const e = JSON.parse(readFileSync(0, 'utf8'));
if (e.prompt.includes('secret')) { process.stderr.write('prompts about secrets are not sent'); process.exit(2); }
console.log('Today is release day.');
`,
    );
    const e = await open([{ text: 'Fine.' }], `[[hooks.UserPromptSubmit]]\ncommand = ${q(gate)}\n`);
    const blocked = await e.submit('tell me the secret');
    expect(blocked).toMatchObject({ status: 'error' });
    expect(blocked.detail).toContain('prompts about secrets are not sent');
    expect(fake!.requests).toHaveLength(0);
    expect(e.runtime.session.history).toHaveLength(0);
    const ok = await e.submit('what day is it');
    expect(ok.status).toBe('finished');
    expect(requestText(0)).toContain('what day is it');
    expect(requestText(0)).toContain('[UserPromptSubmit hook output]\nToday is release day.');
  });

  it('SessionStart runs at the start; its context reaches the first prompt only', async () => {
    const e = await open(
      [{ text: 'One.' }, { text: 'Two.' }],
      `[[hooks.SessionStart]]\ncommand = ${q(`cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch: feature-x"}}'`)}\n`,
    );
    await e.submit('first');
    await e.submit('second');
    expect(requestText(0)).toContain('branch: feature-x');
    const second = readRequest('anthropic', fake!.requests[1]!).messages.at(-1)!.text;
    expect(second).toBe('second');
  });

  it('SessionStart runs again after /clear with source "clear"', async () => {
    const start = script(
      'start.mjs',
      `import { readFileSync } from 'node:fs';
const e = JSON.parse(readFileSync(0, 'utf8'));
console.log('started from ' + e.source);
`,
    );
    const e = await open([{ text: 'One.' }, { text: 'Two.' }], `[[hooks.SessionStart]]\ncommand = ${q(start)}\n`);
    await e.submit('first');
    expect(requestText(0)).toContain('[SessionStart hook output]\nstarted from startup');
    await e.runSlash('/clear');
    await e.submit('after clear');
    expect(requestText(1)).toContain('started from clear');
    expect(requestText(1)).not.toContain('first');
  });

  it('Stop: exit 2 makes the model go on with the reason; stop_hook_active lets it stop the next time', async () => {
    const stop = script(
      'stop.mjs',
      `import { readFileSync } from 'node:fs';
const e = JSON.parse(readFileSync(0, 'utf8'));
if (!e.stop_hook_active) { process.stderr.write('run the tests before you stop'); process.exit(2); }
`,
    );
    const e = await open([{ text: 'Done, I think.' }, { text: 'Tests pass now.' }], `[[hooks.Stop]]\ncommand = ${q(stop)}\n`);
    const outcome = await e.submit('fix it');
    expect(outcome).toMatchObject({ status: 'finished', result: 'Tests pass now.' });
    expect(fake!.requests).toHaveLength(2);
    expect(requestText(1)).toContain('run the tests before you stop');
  });

  it('PreCompact: exit 2 keeps /compact from summarizing', async () => {
    const e = await open(
      [{ text: 'Answer one.' }, { text: 'Answer two.' }, { text: 'SUMMARY' }],
      `protected_tokens = 0\n[[hooks.PreCompact]]\ncommand = ${q('cat > /dev/null; echo "keep the full history" >&2; exit 2')}\n`,
    );
    await e.submit('one');
    await e.submit('two');
    const result = await e.runSlash('/compact');
    expect(result.output).toMatch(/a PreCompact hook blocked it: [^]*keep the full history/);
    expect(fake!.requests).toHaveLength(2);
  });

  it("a hook runs in the bash tool's sandbox: it writes in the project, not outside it", async (ctx) => {
    const e = await open([{ text: 'Hi.' }], '');
    if ((await e.sandbox?.ready())?.state !== 'on') return ctx.skip();
    await e.dispose();
    engine = undefined;
    const outside = join(sandbox!.root, 'written-by-hook');
    await fake?.close();
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'Hi.' }] });
    const config = await loadConfig({ cwd: sandbox!.project, env: sandbox!.env });
    const hooks = [{ event: 'UserPromptSubmit' as const, command: `touch inside-by-hook; touch ${outside}`, timeoutMs: 10_000, file: 'test' }];
    const presets = config.presets.map((p) => (p.name === 'fake' ? { ...p, baseUrl: fake!.baseUrl } : p));
    engine = await assembleSession(cliOptions(config.projectRoot), { ...config, presets, hooks }, {
      createTools: (opts) => createToolRegistry(opts),
      describe: describeToolCall,
      env: sandbox!.env,
      clientOptions: { retryBaseMs: 1, maxRetries: 0 },
    });
    await engine.submit('hello');
    expect(existsSync(join(sandbox!.project, 'inside-by-hook'))).toBe(true);
    expect(existsSync(outside)).toBe(false);
  });
});
