import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs, parsePlainWords, type ParsedCommand } from '../../src/cli/parse-args.js';
import { parseSimpleFlags } from '../../src/cli/interpret-args.js';

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'lwyrm-args-')));
  await writeFile(join(dir, 'file.txt'), 'x');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tty = (argv: string[]) => parseArgs(argv, { cwd: dir, interactive: true });
const piped = (argv: string[]) => parseArgs(argv, { cwd: dir, interactive: false });

function options(result: ParsedCommand) {
  if (result.kind !== 'run') throw new Error(`expected run, got ${JSON.stringify(result)}`);
  return result.options;
}

describe('parseArgs: usage errors', () => {
  it.each([
    [['--frobnicate'], /unknown option --frobnicate/],
    [['-Z'], /unknown option -Z/],
    [['--json', 'task'], /--json only works with -p/],
    [['--out', 'answer.md', 'task'], /--out only works with -p/],
    [['-p'], /-p\/--print needs a prompt/],
    [['--print', ''], /-p\/--print needs a prompt/],
    [['--oneshot'], /-p\/--print needs a prompt/],
    [['-1'], /-p\/--print needs a prompt/],
    [['--allow', 'exec', 'task'], /--allow exec: expected one of read, write, delete, bash/],
    [['--allow', 'read,sudo', 'task'], /--allow sudo/],
    [['--thinking-effort', 'huge', 'task'], /--thinking-effort huge: expected one of minimal/],
    [['-C', '/definitely/not/here', 'task'], /no such directory/],
    [['-c', '--resume', 'abc', 'task'], /either --continue or --resume/],
    [['--proxy', 'not a url', 'task'], /--proxy not a url: expected a URL/],
    [['--resume'], /--resume needs a session id/],
    [['-C', '', 'task'], /-C\/--cwd needs a directory/],
    [['--init', '--cwd='], /-C\/--cwd needs a directory/],
    [['-m', '', 'task'], /-m\/--model needs a preset name/],
    // yargs reads --read-only=yes as false: the opposite of what was asked, without a word.
    [['--read-only=yes', 'task'], /--read-only takes no value \(got "yes"\): write --read-only$/],
    [['-p', 'task', '--json=1'], /--json takes no value/],
    [['--no-save=please', 'task'], /--no-save takes no value .*write --save or --no-save/],
    [['-p', 'task', '--allow'], /--allow needs a kind: read, write, delete, bash/],
    [['--allow', '--read-only', 'task'], /--allow needs a kind/],
    // --init and --map run no task: whatever else was asked for would be dropped without a word.
    [['--init', '--map'], /--init and --map are separate commands/],
    [['--init', '-p', 'write the tests'], /--init writes AGENTS.md and exits; it runs no task/],
    [['--map', 'explain', 'this'], /--map prints the code map and exits; it runs no task/],
    [['--map', '-c'], /--map prints the code map and exits; --continue does not apply/],
    [['--init', '--resume', 'abc'], /--resume does not apply/],
    [['--init', '--json'], /--json only works with -p/],
    // Typically `-m ollama:$MODEL` with MODEL unset: running some other model silently would be worse.
    [['-m', 'ollama:', 'task'], /-m ollama: names no model after the ":"/],
  ])('%j', (argv, message) => {
    const result = tty(argv);
    expect(result.kind).toBe('usage-error');
    if (result.kind === 'usage-error') expect(result.message).toMatch(message);
  });

  it('rejects -C pointing at a file', () => {
    expect(tty(['-C', join(dir, 'file.txt')])).toEqual({ kind: 'usage-error', message: `-C ${join(dir, 'file.txt')}: not a directory` });
  });

  it('refuses to start a session with no prompt when there is no terminal', () => {
    const result = piped([]);
    expect(result.kind).toBe('usage-error');
  });
});

describe('parseArgs: options', () => {
  it('maps every flag into CliOptions', () => {
    const o = options(
      tty(['-m', 'pro', '-C', dir, '-p', 'fix it', '--json', '--out', 'a.md', '--no-save', '--read-only', '--no-thinking', '--thinking-effort', 'low', '--allow', 'read', '--allow', 'bash,write', '--proxy', 'socks5h://127.0.0.1:1080', '-v', '-c']),
    );
    expect(o).toEqual({
      prompt: 'fix it',
      oneShot: true,
      json: true,
      out: 'a.md',
      model: 'pro',
      cwd: dir,
      continueLast: true,
      save: false,
      readOnly: true,
      thinking: false,
      thinkingEffort: 'low',
      allow: ['read', 'bash', 'write'],
      proxy: 'socks5h://127.0.0.1:1080',
      verbose: true,
    });
  });

  it('gives the defaults with nothing set, in a terminal', () => {
    expect(options(tty([]))).toEqual({ oneShot: false, json: false, cwd: dir, continueLast: false, save: true, readOnly: false, allow: [], verbose: false });
  });

  it('treats all one-shot aliases alike', () => {
    for (const flag of ['-p', '--print', '--oneshot', '-1']) {
      expect(options(tty([flag, 'do it']))).toMatchObject({ oneShot: true, prompt: 'do it' });
    }
  });

  it('joins unquoted prompt words, and takes the prompt after -p --json', () => {
    expect(options(tty(['-p', 'add', 'tests'])).prompt).toBe('add tests');
    expect(options(tty(['-p', '--json', 'Summarize'])).prompt).toBe('Summarize');
  });

  it('runs a positional prompt in the full screen in a terminal, once when stdout is not a terminal', () => {
    expect(options(tty(['explain', 'this'])).oneShot).toBe(false);
    expect(options(piped(['explain', 'this']))).toMatchObject({ oneShot: true, prompt: 'explain this' });
  });

  it('keeps --thinking undefined unless given', () => {
    expect(options(tty([])).thinking).toBeUndefined();
    expect(options(tty(['--thinking'])).thinking).toBe(true);
  });

  it('keeps model names with colons and numeric-looking prompts intact', () => {
    expect(options(tty(['-m', 'ollama:qwen3:8b', '42'])).model).toBe('ollama:qwen3:8b');
    expect(options(tty(['-p', '42'])).prompt).toBe('42');
  });

  it('still takes =true and =false on a switch', () => {
    expect(options(tty(['--read-only=true', 'task'])).readOnly).toBe(true);
    expect(options(tty(['--thinking=false', 'task'])).thinking).toBe(false);
    expect(options(tty(['--', '--read-only=yes'])).prompt).toBe('--read-only=yes');
  });

  it('recognises --help, --version, --init and --map', () => {
    expect(piped(['--help']).kind).toBe('help');
    expect(piped(['-h']).kind).toBe('help');
    expect(piped(['--version']).kind).toBe('version');
    expect(piped(['--init'])).toEqual({ kind: 'init', cwd: dir });
    expect(piped(['--map']).kind).toBe('map');
  });
});

describe('parsePlainWords: the start without yargs', () => {
  const cases: string[][] = [[], ['fix', 'the', 'tests'], ['42'], ['a=b', 'c'], ['', 'x'], ['1e3', '0x10', 'true']];
  it('answers exactly as parseArgs for plain words, in a terminal and not', () => {
    for (const interactive of [true, false]) {
      for (const argv of cases) {
        const ctx = { cwd: dir, interactive };
        expect(parsePlainWords(argv, ctx), JSON.stringify({ argv, interactive })).toEqual(parseArgs(argv, ctx));
      }
    }
  });

  it('leaves anything with a dash to the full parser', () => {
    for (const argv of [['-1', 'x'], ['--', 'x'], ['fix', '-v'], ['-'], ['--thinking']]) {
      expect(parsePlainWords(argv, { cwd: dir, interactive: true })).toBeUndefined();
    }
  });
});

describe('parseArgs: output and input formats', () => {
  it('reads --output-format, --input-format and --include-partial-messages', () => {
    expect(options(tty(['-p', 'x', '--output-format', 'stream-json', '--include-partial-messages']))).toMatchObject({
      prompt: 'x',
      oneShot: true,
      json: false,
      outputFormat: 'stream-json',
      includePartial: true,
    });
    // json is --json, under its other name.
    expect(options(tty(['-p', 'x', '--output-format', 'json']))).toMatchObject({ json: true, outputFormat: 'json' });
    expect(options(tty(['-p', 'x', '--output-format', 'text']))).toMatchObject({ json: false, outputFormat: 'text' });
    // Messages on stdin are the task: no prompt needed, and one-shot even without -p.
    expect(options(tty(['--input-format', 'stream-json', '--output-format', 'stream-json']))).toMatchObject({ oneShot: true, inputFormat: 'stream-json' });
    expect(options(tty(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json']))).toMatchObject({ oneShot: true });
  });

  it.each([
    [['-p', 'x', '--output-format', 'yaml'], /--output-format yaml: expected one of text, json, stream-json/],
    [['-p', 'x', '--input-format', 'json'], /--input-format json: expected one of text, stream-json/],
    [['--output-format', 'stream-json', 'x'], /only works with -p/],
    [['--output-format', 'json', 'x'], /--output-format json only works with -p/],
    [['-p', 'x', '--include-partial-messages'], /only works with --output-format stream-json/],
    [['-p', 'x', '--input-format', 'stream-json', '--output-format', 'json'], /needs --output-format stream-json/],
    [['-p', 'x', '--json', '--output-format', 'stream-json'], /--json is --output-format json/],
  ])('refuses %j', (argv, message) => {
    const result = tty(argv);
    expect(result.kind).toBe('usage-error');
    if (result.kind === 'usage-error') expect(result.message).toMatch(message);
  });
});

describe('the usual lines without yargs', () => {
  const ctx = { cwd: process.cwd(), interactive: false };
  it('give the same command as yargs, and leave everything else to it', () => {
    const same = [
      ['-p', 'fix the tests'],
      ['-p', 'one more step', '--resume', 'abc123'],
      ['-c', '-p', 'carry on'],
      ['--continue', '--print', 'carry on', '--json'],
      ['-p', 'tidy', '--allow', 'write', '--allow', 'bash', '-v'],
      ['-p', 'a', '-p', 'b'],
      ['-m', 'pro', '--read-only', '-p', 'explain', '--raw'],
      ['--resume', 'abc123'],
      ['-c'],
      ['fix', 'it', '--json'],
      ['--json'],
      ['-c', '--resume', 'abc123', '-p', 'x'],
      ['-p', 'x', '--allow', 'everything'],
      ['-m', 'flash:', '-p', 'x'],
    ];
    for (const argv of same) {
      const fast = parseSimpleFlags(argv, ctx);
      expect(fast, argv.join(' ')).toBeDefined();
      expect(fast, argv.join(' ')).toEqual(parseArgs(argv, ctx));
    }
    for (const argv of [['-p', '-'], ['-p'], ['--print=x'], ['-c', '-c'], ['--no-save', '-p', 'x'], ['-p', 'x', '--', '--json'], ['-C', 'dir'], ['--rewind'], ['-1', 'x'], ['--thinking']]) {
      expect(parseSimpleFlags(argv, ctx), argv.join(' ')).toBeUndefined();
    }
  });
});
