import { readFileSync } from 'node:fs';
import { link, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/tools/bash.js';
import { makePolicy } from './make-config.js';
import { makeContext, makeTempDir } from './make-context.js';

let root: string;
const allowAll = { policy: makePolicy({ bash: 'allow' }) };

beforeAll(async () => {
  root = await makeTempDir('lwyrm-bash-');
});

/** Running, not a zombie waiting for init to reap it (state Z in /proc). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('bash', () => {
  it('runs in the project root and reports the exit code', async () => {
    const r = await bashTool.run({ command: 'pwd; exit 3' }, makeContext(root, { config: allowAll }));
    expect(r.ok).toBe(false);
    expect(r.content).toBe(`${root}\n[exit code 3]`);
    expect(r.summary).toBe('exit 3, 1 line of output');
  });

  it('counts the lines of output a reader sees, a last line without its newline included', async () => {
    const ctx = makeContext(root, { config: allowAll });
    expect((await bashTool.run({ command: "printf 'one\\ntwo'" }, ctx)).summary).toBe('exit 0, 2 lines of output');
    expect((await bashTool.run({ command: "printf 'one\\ntwo\\n'" }, ctx)).summary).toBe('exit 0, 2 lines of output');
    expect((await bashTool.run({ command: 'true' }, ctx)).summary).toBe('exit 0, no output');
  });

  it('interleaves stdout and stderr in the order they were written, streamed line by line', async () => {
    const ctx = makeContext(root, { config: allowAll });
    const cmd = 'for i in 1 2 3; do echo out$i; echo err$i >&2; done';
    const r = await bashTool.run({ command: cmd }, ctx);
    expect(r.ok).toBe(true);
    expect(r.content).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3\n[exit code 0]');
    expect(ctx.output.join('')).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3\n');
    expect(ctx.output.every((chunk) => chunk.endsWith('\n'))).toBe(true);
  });

  it('gives a command that reads stdin end-of-file at once', async () => {
    const started = Date.now();
    const r = await bashTool.run({ command: 'read line; echo "got:$?:$line"', timeout_ms: 10_000 }, makeContext(root, { config: allowAll }));
    expect(r.content).toBe('got:1:\n[exit code 0]');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('kills the whole tree on timeout, including grandchildren that ignore SIGTERM', async () => {
    const pidFile = path.join(root, 'pids');
    // Two grandchildren ignore SIGTERM; the shell waits on them forever.
    const cmd = `(trap '' TERM; sleep 300 & echo $! >> ${pidFile}; wait) & (trap '' TERM; exec sleep 301) & echo $! >> ${pidFile}; echo started; wait`;
    const r = await bashTool.run({ command: cmd, timeout_ms: 500 }, makeContext(root, { config: allowAll }));
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/^started\n\[timed out after 500 ms/);
    const pids = (await readFile(pidFile, 'utf8')).trim().split('\n').map(Number);
    expect(pids.length).toBe(2);
    for (const pid of pids) expect(alive(pid), `pid ${pid} survived`).toBe(false);
  });

  it('an interrupt stops the command and marks the result interrupted', async () => {
    const controller = new AbortController();
    const ctx = makeContext(root, { config: allowAll, signal: controller.signal });
    const ctxWithTrigger = { ...ctx, onOutput: (t: string) => { if (t.includes('ready')) controller.abort(); } };
    const r = await bashTool.run({ command: 'echo ready; sleep 30' }, ctxWithTrigger);
    expect(r.interrupted).toBe(true);
    expect(r.content).toMatch(/interrupted/);
  });

  it('does not leave background jobs running after the command ends', async () => {
    const pidFile = path.join(root, 'bg');
    const r = await bashTool.run({ command: `sleep 300 & echo $! > ${pidFile}; echo done` }, makeContext(root, { config: allowAll }));
    expect(r.content).toBe('done\n[exit code 0]');
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(alive(pid)).toBe(false);
  });

  it('caps output keeping head and tail with a note', async () => {
    const ctx = makeContext(root, { config: { ...allowAll, maxToolOutputChars: 200 } });
    const r = await bashTool.run({ command: 'seq 1 1000' }, ctx);
    expect(r.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.content).toMatch(/\n999\n1000\n\[exit code 0\]$/);
    expect(r.content).toMatch(/chars cut from the middle of 3893/);
    expect(r.content.length).toBeLessThan(400);
  });

  it('removes provider keys from the environment', async () => {
    process.env['LWYRM_TEST_KEY'] = 'sk-secret';
    process.env['LWYRM_TEST_PRESET_KEY'] = 'sk-other';
    try {
      const config = {
        ...allowAll,
        secretEnvNames: ['LWYRM_TEST_KEY'],
        presets: [{ ...fakePreset, apiKeyEnv: ['LWYRM_TEST_PRESET_KEY'] }],
      };
      const r = await bashTool.run({ command: 'env' }, makeContext(root, { config }));
      expect(r.content).not.toContain('sk-secret');
      expect(r.content).not.toContain('sk-other');
      expect(r.content).toContain('PATH=');
    } finally {
      delete process.env['LWYRM_TEST_KEY'];
      delete process.env['LWYRM_TEST_PRESET_KEY'];
    }
  });

  it('asks commands for plain output, whatever colour the user forces in their shell', async () => {
    process.env['FORCE_COLOR'] = '3';
    process.env['CLICOLOR_FORCE'] = '1';
    const saved = process.env['NO_COLOR'];
    delete process.env['NO_COLOR'];
    try {
      const r = await bashTool.run(
        { command: 'echo "no=${NO_COLOR-unset} force=${FORCE_COLOR-unset} cli=${CLICOLOR_FORCE-unset}"' },
        makeContext(root, { config: allowAll }),
      );
      expect(r.content).toContain('no=1 force=unset cli=unset');
    } finally {
      delete process.env['FORCE_COLOR'];
      delete process.env['CLICOLOR_FORCE'];
      if (saved !== undefined) process.env['NO_COLOR'] = saved;
    }
  });

  it('streams escaped output so it cannot repaint the screen', async () => {
    const ctx = makeContext(root, { config: allowAll });
    await bashTool.run({ command: "printf 'a\\033[2Jb\\n'" }, ctx);
    expect(ctx.output.join('')).toBe('a\\x1b[2Jb\n');
  });

  it('asks with the escaped command, and a denial runs nothing', async () => {
    const ctx = makeContext(root, { answer: 'no' });
    const marker = path.join(root, 'ran');
    const r = await bashTool.run({ command: `touch ${marker} #\u202e` }, ctx);
    expect(r.ok).toBe(false);
    expect(ctx.asked[0]?.command).toBe(`touch ${marker} #\\u202e`);
    await expect(readFile(marker)).rejects.toThrow();
  });

  it('an allowlisted command whose argument is a link out of the project (or hard-linked) is asked about', async () => {
    const outside = await makeTempDir('lwyrm-bash-out-');
    await writeFile(path.join(outside, 'id_rsa'), 'PRIVATE');
    await mkdir(path.join(root, 'docs'), { recursive: true });
    await symlink(path.join(outside, 'id_rsa'), path.join(root, 'docs', 'notes.txt'));
    await symlink(outside, path.join(root, 'docs', 'more'));
    await link(path.join(outside, 'id_rsa'), path.join(root, 'docs', 'hard.txt'));
    await writeFile(path.join(root, 'docs', 'plain.txt'), 'fine');
    const policy = makePolicy({ bashAllowlist: ['cat', 'ls'] });
    for (const command of ['cat docs/notes.txt', 'ls docs/more', 'cat docs/hard.txt', 'cat docs/plain.txt docs/notes.txt', 'ls docs/more/not-yet']) {
      const ctx = makeContext(root, { config: { policy }, answer: 'no' });
      const r = await bashTool.run({ command }, ctx);
      expect(r.content, command).not.toContain('PRIVATE');
      expect(ctx.asked, command).toHaveLength(1);
      expect(ctx.asked[0]?.reason).toMatch(/allowlist: (cat|ls), but docs\/\S+ (leads outside|is hard-linked)/);
    }
    const ctx = makeContext(root, { config: { policy } });
    expect((await bashTool.run({ command: 'cat docs/plain.txt' }, ctx)).content).toBe('fine\n[exit code 0]');
    expect(ctx.asked).toHaveLength(0);
  });

  it('the denylist blocks without asking; an allowlisted command runs without asking', async () => {
    const policy = makePolicy({ bashDenylist: ['curl'], bashAllowlist: ['echo'] });
    const ctx = makeContext(root, { config: { policy } });
    expect((await bashTool.run({ command: "c''url x" }, ctx)).content).toMatch(/denylist: curl/);
    const ok = await bashTool.run({ command: 'echo hi' }, ctx);
    expect(ok.content).toBe('hi\n[exit code 0]');
    expect(ctx.asked).toHaveLength(0);
  });

  it('validates its arguments', async () => {
    const ctx = makeContext(root, { config: allowAll });
    expect((await bashTool.run({}, ctx)).content).toMatch(/missing required argument "command"/);
    expect((await bashTool.run({ command: 'ls', timeout_ms: 'soon' }, ctx)).content).toMatch(/"timeout_ms" must be an integer/);
    const asking = makeContext(root);
    const nul = await bashTool.run({ command: 'echo a\0b' }, asking);
    expect(nul.content).toMatch(/contains a NUL character/);
    expect(asking.asked).toHaveLength(0);
  });

  it('keeps memory bounded when a command prints one enormous line', async () => {
    const ctx = makeContext(root, { config: { ...allowAll, maxToolOutputChars: 1000 } });
    const r = await bashTool.run({ command: 'head -c 20000000 /dev/zero | tr "\\0" a; echo; echo done', timeout_ms: 60_000 }, ctx);
    expect(r.ok).toBe(true);
    expect(r.content).toMatch(/chars cut from the middle of 20000006/);
    expect(r.content.endsWith('done\n[exit code 0]')).toBe(true);
    const live = ctx.output.join('');
    expect(live.length).toBeLessThan(100_000);
    expect(live).toContain('[rest of this line not shown live]\n');
    expect(live.endsWith('\ndone\n')).toBe(true);
  });

  it('never turns a very long timeout into an instant one (timers overflow past 2^31-1 ms)', async () => {
    const ctx = makeContext(root, { config: allowAll });
    const r = await bashTool.run({ command: 'echo hi', timeout_ms: 2 ** 31 }, ctx);
    expect(r.content).toMatch(/"timeout_ms" must be at most 2147483647/);
    expect(ctx.asked).toHaveLength(0);
    const fromConfig = await bashTool.run({ command: 'echo hi' }, makeContext(root, { config: { ...allowAll, bashTimeoutMs: 10 ** 10 } }));
    expect(fromConfig.content).toBe('hi\n[exit code 0]');
    const longest = await bashTool.run({ command: 'echo hi', timeout_ms: 2 ** 31 - 1 }, makeContext(root, { config: allowAll }));
    expect(longest.content).toBe('hi\n[exit code 0]');
  });
});

const fakePreset = {
  name: 'x', format: 'openai' as const, baseUrl: 'http://127.0.0.1:1', model: 'm', apiKeyEnv: [], keyOptional: true,
  thinking: false, vision: false, contextWindow: 1000, maxTokens: 100, echoReasoning: 'auto' as const, proxy: undefined,
};

