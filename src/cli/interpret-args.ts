/**
 * What the parsed words mean: the checks and the CliOptions, apart from the parser itself, so a
 * command line of plain words (`lwyrm`, `lwyrm fix the tests`) needs no yargs (~150 ms to load).
 */
import { statSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ToolKind } from '../config/types.js';
import type { ThinkingEffort } from '../providers/types.js';
import { ALLOW_KINDS, INPUT_FORMATS, OUTPUT_FORMATS, THINKING_EFFORTS } from './flags.js';
import type { CliOptions } from './options.js';

export type ParsedCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'init'; readonly cwd: string }
  | { readonly kind: 'map'; readonly options: CliOptions }
  | { readonly kind: 'rewind'; readonly cwd: string; readonly checkpoint?: number; readonly session?: string; readonly verbose: boolean }
  | { readonly kind: 'run'; readonly options: CliOptions }
  | { readonly kind: 'usage-error'; readonly message: string };

export interface ParseContext {
  readonly cwd: string;
  /** stdout is a terminal (and stdin too: a full screen needs both). */
  readonly interactive: boolean;
}

export class UsageError extends Error {}

/**
 * The same answer as parseArgs for a command line of plain words (no word starts with "-", so
 * there is nothing for yargs to parse), without loading yargs; undefined for anything else.
 */
export function parsePlainWords(argv: readonly string[], ctx: ParseContext): ParsedCommand | undefined {
  if (argv.some((arg) => arg.startsWith('-'))) return undefined;
  return catchUsage(() => interpretArgs({ _: [...argv] }, ctx));
}

/** Flags a usual one-shot or resume line is made of, by the words that name them (flags.ts). */
const SIMPLE_VALUES: Readonly<Record<string, string>> = { '-p': 'print', '--print': 'print', '--resume': 'resume', '-m': 'model', '--model': 'model', '--allow': 'allow' };
const SIMPLE_SWITCHES: Readonly<Record<string, string>> = { '-c': 'continue', '--continue': 'continue', '--json': 'json', '--raw': 'raw', '--read-only': 'read-only', '-v': 'verbose', '--verbose': 'verbose' };

/**
 * The same answer as parseArgs for the usual lines (`-p TASK`, `-c -p TASK`, `--resume ID`,
 * `--json`, `--allow KIND` …) without loading yargs (its modules and parse were ~40 ms of CPU
 * before a resumed session's first request); undefined for anything else, which yargs parses:
 * other flags, `--flag=value`, a value that starts with "-" (`-p -`), `--`, a repeated switch.
 */
export function parseSimpleFlags(argv: readonly string[], ctx: ParseContext): ParsedCommand | undefined {
  const words: ParsedWords = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      words._.push(arg);
      continue;
    }
    const valueOf = SIMPLE_VALUES[arg];
    if (valueOf !== undefined) {
      const value = argv[++i];
      if (value === undefined || value.startsWith('-')) return undefined;
      // As yargs gives them with duplicate-arguments-array: a repeated flag (and --allow always) as a list.
      const before = words[valueOf];
      words[valueOf] = valueOf === 'allow' || before !== undefined ? [...(before === undefined ? [] : ([] as unknown[]).concat(before)), value] : value;
      continue;
    }
    const switchOf = SIMPLE_SWITCHES[arg];
    if (switchOf === undefined || words[switchOf] !== undefined) return undefined;
    words[switchOf] = true;
  }
  return catchUsage(() => interpretArgs(words, ctx));
}

export function catchUsage(parse: () => ParsedCommand): ParsedCommand {
  try {
    return parse();
  } catch (error) {
    if (error instanceof UsageError) return { kind: 'usage-error', message: error.message };
    throw error;
  }
}

/** The parser's output: flag values by name, and the positional words. */
export type ParsedWords = Record<string, unknown> & { _: (string | number)[] };

export function interpretArgs(a: ParsedWords, ctx: ParseContext): ParsedCommand {
  if (a['help']) return { kind: 'help' };
  if (a['version']) return { kind: 'version' };
  const cwdFlag = lastString(a['cwd']);
  // Usually `-C "$DIR"` with DIR unset: working in the current directory instead would be a surprise.
  if (cwdFlag === '') throw new UsageError('-C/--cwd needs a directory');
  const cwd = resolveCwd(cwdFlag, ctx.cwd);

  const formats = ioFormats(a);
  // Messages on stdin are the task: -p needs no prompt of its own then.
  const printGiven = a['print'] !== undefined || formats.inputFormat === 'stream-json';
  const words = [lastString(a['print']), ...a._.map(String)].filter((w): w is string => w !== undefined && w !== '');
  const prompt = words.length > 0 ? words.join(' ') : undefined;
  checkStandalone(a, printGiven || prompt !== undefined);
  const json = a['json'] === true || formats.outputFormat === 'json';
  const out = lastString(a['out']);
  if (a['print'] !== undefined && !prompt && formats.inputFormat !== 'stream-json') throw new UsageError('-p/--print needs a prompt, e.g. lwyrm -p "add tests for utils.ts"');
  if (json && !printGiven) throw new UsageError(`${a['json'] === true ? '--json' : '--output-format json'} only works with -p/--print (one-shot mode)`);
  if (formats.outputFormat === 'stream-json' && !printGiven) throw new UsageError('--output-format stream-json only works with -p/--print (one-shot mode)');
  if (out !== undefined && !printGiven) throw new UsageError('--out only works with -p/--print (one-shot mode)');
  if (out === '') throw new UsageError('--out needs a file name');
  const resume = lastString(a['resume']);
  if (resume === '') throw new UsageError('--resume needs a session id');
  if (a['continue'] === true && resume !== undefined) throw new UsageError('use either --continue or --resume, not both');
  const model = lastString(a['model']);
  if (model === '') throw new UsageError('-m/--model needs a preset name');
  if (model?.endsWith(':')) {
    const name = model.slice(0, -1);
    throw new UsageError(`-m ${model} names no model after the ":"; write -m ${name}:MODEL, or just -m ${name}`);
  }
  const proxy = lastString(a['proxy']);
  if (proxy !== undefined) checkProxy(proxy);
  if (a['init']) return { kind: 'init', cwd };
  if (a['rewind'] !== undefined) return rewindCommand(a, cwd, resume);

  const options: CliOptions = {
    ...(prompt !== undefined ? { prompt } : {}),
    oneShot: printGiven || (prompt !== undefined && !ctx.interactive),
    json,
    ...formats,
    ...(out !== undefined ? { out } : {}),
    ...(a['raw'] === true ? { raw: true } : {}),
    ...(model !== undefined ? { model } : {}),
    cwd,
    continueLast: a['continue'] === true,
    ...(resume !== undefined ? { resume } : {}),
    save: a['save'] !== false,
    readOnly: a['read-only'] === true,
    ...(typeof a['thinking'] === 'boolean' ? { thinking: a['thinking'] } : {}),
    ...thinkingEffort(a['thinking-effort']),
    allow: allowKinds(a['allow']),
    ...(proxy !== undefined ? { proxy } : {}),
    verbose: a['verbose'] === true,
  };
  if (options.raw === true && !options.oneShot) throw new UsageError('--raw only works with -p/--print (one-shot mode): the full screen always shows control sequences as escapes');
  if (a['map']) return { kind: 'map', options };
  if (!options.oneShot && !ctx.interactive) {
    // Most often `echo task | lwyrm`: the task is on stdin, and -p - is what reads it.
    throw new UsageError('no terminal to open a full-screen session in. To run once with the task from stdin: echo "fix the tests" | lwyrm -p -  (or give it as lwyrm -p "fix the tests")');
  }
  return { kind: 'run', options };
}

/**
 * --init and --map do their one thing and exit: a task beside them would be silently dropped, so
 * the user learns now instead of wondering why nothing ran.
 */
function checkStandalone(a: ParsedWords, hasTask: boolean): void {
  if (a['init'] && a['map']) throw new UsageError('--init and --map are separate commands: run one, then the other');
  if (a['rewind'] !== undefined && hasTask) throw new UsageError('--rewind restores files and exits; it runs no task, so leave out the prompt and -p');
  if (a['rewind'] !== undefined && a['init']) throw new UsageError('--init and --rewind are separate commands: run one, then the other');
  const command = a['init'] ? '--init' : a['map'] ? '--map' : undefined;
  if (!command) return;
  const what = command === '--init' ? 'writes AGENTS.md' : 'prints the code map';
  if (hasTask) throw new UsageError(`${command} ${what} and exits; it runs no task, so leave out the prompt and -p`);
  const session = a['continue'] === true ? '--continue' : a['resume'] !== undefined ? '--resume' : undefined;
  if (session) throw new UsageError(`${command} ${what} and exits; ${session} does not apply to it`);
}

/** --rewind [N]: files only, no model; the flags of a task or a new session make no sense beside it. */
function rewindCommand(a: ParsedWords, cwd: string, resume: string | undefined): ParsedCommand {
  const value = lastString(a['rewind']) ?? '';
  if (value !== '' && !/^[1-9]\d{0,8}$/.test(value)) throw new UsageError(`--rewind ${value}: expected a checkpoint number (1, 2, …), or nothing for the last turn`);
  for (const flag of ['save', 'read-only', 'map', 'json', 'out', 'model', 'allow']) {
    const given = flag === 'save' ? a['save'] === false : a[flag] !== undefined && a[flag] !== false;
    if (given) throw new UsageError(`--rewind restores files and exits; --${flag === 'save' ? 'no-save' : flag} does not apply to it`);
  }
  return {
    kind: 'rewind',
    cwd,
    ...(value !== '' ? { checkpoint: Number(value) } : {}),
    ...(resume !== undefined ? { session: resume } : {}),
    verbose: a['verbose'] === true,
  };
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} ${value || '(empty)'}: expected one of ${allowed.join(', ')}`);
  return value as T;
}

/** --output-format, --input-format and --include-partial-messages, checked against each other. */
function ioFormats(a: ParsedWords): Pick<CliOptions, 'outputFormat' | 'inputFormat' | 'includePartial'> {
  const output = oneOf('output-format', lastString(a['output-format']), OUTPUT_FORMATS);
  const input = oneOf('input-format', lastString(a['input-format']), INPUT_FORMATS);
  if (a['json'] === true && output !== undefined && output !== 'json') {
    throw new UsageError(`--json is --output-format json; it cannot go with --output-format ${output}`);
  }
  if (input === 'stream-json' && output !== 'stream-json') {
    throw new UsageError('--input-format stream-json needs --output-format stream-json (the replies to a program are events too)');
  }
  const partial = a['include-partial-messages'] === true;
  if (partial && output !== 'stream-json') throw new UsageError('--include-partial-messages only works with --output-format stream-json');
  return {
    ...(output !== undefined ? { outputFormat: output } : {}),
    ...(input !== undefined ? { inputFormat: input } : {}),
    ...(partial ? { includePartial: true } : {}),
  };
}

/** A repeated single-value flag: the last one wins, as in most CLIs. */
function lastString(value: unknown): string | undefined {
  if (Array.isArray(value)) return lastString(value[value.length - 1]);
  if (value === undefined || value === null) return undefined;
  return String(value);
}

function resolveCwd(dir: string | undefined, base: string): string {
  const path = resolve(base, dir ?? '.');
  try {
    if (!statSync(path).isDirectory()) throw new UsageError(`-C ${dir}: not a directory`);
    return realpathSync(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`-C ${dir ?? path}: no such directory`);
  }
}

function thinkingEffort(value: unknown): { thinkingEffort?: ThinkingEffort } {
  const level = lastString(value);
  if (level === undefined) return {};
  if (!(THINKING_EFFORTS as readonly string[]).includes(level)) {
    throw new UsageError(`--thinking-effort ${level}: expected one of ${THINKING_EFFORTS.join(', ')}`);
  }
  return { thinkingEffort: level as ThinkingEffort };
}

function allowKinds(value: unknown): ToolKind[] {
  // `--allow` with nothing after it (or another flag next): granting nothing silently is a surprise.
  if (Array.isArray(value) && value.length === 0) throw new UsageError(`--allow needs a kind: ${ALLOW_KINDS.join(', ')}`);
  const items = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => String(v).split(','));
  const kinds: ToolKind[] = [];
  for (const raw of items) {
    const kind = raw.trim();
    if (!(ALLOW_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`--allow ${kind || '(empty)'}: expected one of ${ALLOW_KINDS.join(', ')}`);
    }
    if (!kinds.includes(kind as ToolKind)) kinds.push(kind as ToolKind);
  }
  return kinds;
}

function checkProxy(value: string): void {
  try {
    const url = new URL(value);
    if (['http:', 'https:', 'socks5:', 'socks5h:', 'socks:'].includes(url.protocol)) return;
  } catch {
    // fall through to the usage error
  }
  throw new UsageError(`--proxy ${value}: expected a URL such as http://host:3128 or socks5h://127.0.0.1:1080`);
}

