import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FLAGS, helpText } from '../../src/cli/flags.js';
import { AGENTS_TEMPLATE } from '../../src/cli/init-agents.js';
import { main } from '../../src/cli/main.js';
import { makeTempEnv, type TempEnv } from '../config/temp-env.js';

let t: TempEnv;
beforeEach(async () => {
  t = await makeTempEnv();
});
afterEach(async () => {
  await t.cleanup();
});

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    cwd: t.project,
    env: { ...t.env, ...env },
    interactive: false,
    version: '9.9.9',
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
  });
  return { code, stdout, stderr };
}

/** C0 (but newline and tab) and C1 control characters: what could drive the terminal. */
function controlCharacters(text: string): string[] {
  return [...text].filter((c) => {
    const cp = c.codePointAt(0) ?? 0;
    return (cp < 0x20 && c !== '\n' && c !== '\t') || (cp >= 0x7f && cp <= 0x9f);
  });
}

describe('--help', () => {
  // The contract in DESIGN.md: every one of these must be listed.
  const contract = ['-m', '--model', '-C', '--cwd', '-p', '--print', '--oneshot', '-1', '--json', '--out', '-c', '--continue', '--resume', '--no-save', '--read-only', '--thinking', '--no-thinking', '--thinking-effort', '--allow', '--proxy', '--init', '--map', '-v', '--verbose', '--version', '--help'];

  it('lists every contract flag, each with a one-line explanation', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    const rows = stdout
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim().split(/\s{2,}/));
    for (const flag of contract) {
      const row = rows.find(([label]) => (label ?? '').split(/[ ,]+/).includes(flag));
      expect(row, flag).toBeDefined();
      expect(row?.[1]?.length ?? 0, flag).toBeGreaterThan(10);
    }
    expect(FLAGS.every((f) => helpText().includes(`--${f.name === 'save' ? 'no-save' : f.name}`))).toBe(true);
  });
});

describe('--init', () => {
  it('writes a commented starter AGENTS.md without any API key, then refuses to overwrite it', async () => {
    const first = await run(['--init']);
    expect(first.code).toBe(0);
    const path = join(t.project, 'AGENTS.md');
    expect(await readFile(path, 'utf8')).toBe(AGENTS_TEMPLATE);
    expect(AGENTS_TEMPLATE).toContain('## Commands');
    expect(AGENTS_TEMPLATE).toContain('<!--');

    await writeFile(path, 'my own notes\n');
    const second = await run(['--init']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('already exists');
    expect(await readFile(path, 'utf8')).toBe('my own notes\n');
  });

  it('writes into the -C project root and works even with a broken config', async () => {
    await t.writeUser('this is = = not toml');
    const { code } = await run(['--init', '-C', t.project]);
    expect(code).toBe(0);
    expect(await readFile(join(t.project, 'AGENTS.md'), 'utf8')).toContain('Commands');
  });
});

describe('starting a session', () => {
  it('names the variable to set when the preset has no key, exit 1', async () => {
    const { code, stderr } = await run(['-p', 'hello']);
    expect(code).toBe(1);
    expect(stderr).toContain('DEEPSEEK_API_KEY');
  });

  it('with --json, still prints the JSON object when the key is missing', async () => {
    const { code, stdout } = await run(['-p', 'hello', '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'error', result: '', session_id: null, preset: 'flash' });
  });

  it('warns that --read-only overrules --allow for writes, deletes and commands', async () => {
    const { stderr } = await run(['-p', 'hello', '--read-only', '--allow', 'read,write', '--allow', 'bash']);
    expect(stderr).toContain('lwyrm: warning: --read-only overrules --allow write,bash: nothing will be written, deleted or run');
    expect((await run(['-p', 'hello', '--read-only', '--allow', 'read'])).stderr).not.toContain('overrules');
  });

  it('names all variables of a custom preset', async () => {
    await t.writeUser('[[presets]]\nname = "k"\nformat = "openai"\nbase_url = "https://h.test/v1"\nmodel = "m"\napi_key_env = ["K1", "K2"]\n');
    const { code, stderr } = await run(['-m', 'k', '-p', 'hello']);
    expect(code).toBe(1);
    expect(stderr).toContain('set one of K1, K2');
  });

  it('a key_file not written yet is a missing key: exit 1, naming the variable and the file', async () => {
    await t.writeUser('[[presets]]\nname = "flash"\nkey_file = "~/deepseek.key"\n');
    const { code, stderr } = await run(['-p', 'hello']);
    expect(code).toBe(1);
    expect(stderr).toContain(`set DEEPSEEK_API_KEY or put the key in ${join(t.home, 'deepseek.key')}`);
  });

  it('does not ask a local preset for a key', async () => {
    // A port nothing listens on (a developer's real Ollama must not answer), and no retries: the run
    // gets as far as the request and fails there at once instead of backing off.
    await t.writeUser('max_retries = 0\n[[presets]]\nname = "ollama"\nbase_url = "http://127.0.0.1:1/v1"\n');
    const { code, stderr } = await run(['-m', 'ollama:some-model', '-p', 'hello'], { DEEPSEEK_API_KEY: undefined });
    expect(stderr).not.toContain('no API key');
    // The one-shot runner reports the refused connection on the process's own stderr.
    expect(code).toBe(1);
  }, 20_000);

  it('treats an unknown preset as a usage error, exit 2', async () => {
    const { code, stderr } = await run(['-m', 'nonesuch', '-p', 'hello']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown preset "nonesuch"');
  });

  it('reports a broken config with file and key, exit 2, no stack trace', async () => {
    await t.writeProject('max_tool_steps = "many"\n');
    const { code, stderr } = await run(['-p', 'hello'], { DEEPSEEK_API_KEY: 'sk-test' });
    expect(code).toBe(2);
    expect(stderr).toContain(t.projectFile);
    expect(stderr).toContain('"max_tool_steps"');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('prints each startup warning once, to stderr', async () => {
    await t.writeProject('colour = "blue"\nproxy = "http://p.test:1"\n');
    const { stdout, stderr } = await run(['-p', 'hello']);
    expect(stdout).toBe('');
    expect(stderr.match(/unknown key "colour"/g)).toHaveLength(1);
    expect(stderr.match(/may not set these/g)).toHaveLength(1);
  });

  it('shows control characters from a project file escaped, in warnings and errors', async () => {
    await t.writeProject('"\\u001b]0;owned\\u0007" = 1\n"evil\\u009b2J" = "x"\n');
    const warned = await run(['-p', 'hello']);
    expect(warned.stderr).toContain('unknown key');
    expect(controlCharacters(warned.stderr)).toEqual([]);
    await t.writeProject('');
    await t.writeUser('default_preset = "\\u001b[2Jx"\n');
    const failed = await run(['-p', 'hello']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('"default_preset"');
    expect(controlCharacters(failed.stderr)).toEqual([]);
  });

  it('prints usage errors with a pointer to --help, exit 2', async () => {
    const { code, stderr } = await run(['--json', 'x']);
    expect(code).toBe(2);
    expect(stderr).toContain("Try 'lwyrm --help'");
  });
});

describe('--map', () => {
  it('never asks for an API key', async () => {
    const { code, stderr } = await run(['--map']);
    expect(stderr).not.toContain('API key');
    expect(code).not.toBe(2);
  });
});

describe('lwyrm acp', () => {
  it.each([
    [['acp', 'fix it'], /takes no prompt/],
    [['acp', '-p', 'x'], /takes no prompt/],
    [['acp', '--json'], /--json/],
    [['acp', '--resume', 'abc'], /session\/load/],
    [['acp', '--init'], /session options only/],
    [['acp', '--frobnicate'], /unknown option --frobnicate/],
  ])('refuses %j with a usage error on stderr', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('is named in --help', async () => {
    expect(helpText()).toMatch(/lwyrm acp\s+run as an Agent Client Protocol agent/);
  });
});
