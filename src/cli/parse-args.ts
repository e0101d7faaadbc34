/**
 * argv → CliOptions, or what to do instead (help, version, init, map) or a usage error.
 * Pure apart from resolving -C on disk: the caller decides what to print and the exit status.
 */
import { statSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import yargs from 'yargs';
import type { ToolKind } from '../config/types.js';
import type { ThinkingEffort } from '../providers/types.js';
import { ALLOW_KINDS, FLAGS, THINKING_EFFORTS } from './flags.js';
import type { CliOptions } from './options.js';

export type ParsedCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'init'; readonly cwd: string }
  | { readonly kind: 'map'; readonly options: CliOptions }
  | { readonly kind: 'run'; readonly options: CliOptions }
  | { readonly kind: 'usage-error'; readonly message: string };

export interface ParseContext {
  readonly cwd: string;
  /** stdout is a terminal (and stdin too: a full screen needs both). */
  readonly interactive: boolean;
}

class UsageError extends Error {}

export function parseArgs(argv: readonly string[], ctx: ParseContext): ParsedCommand {
  try {
    return parseOrThrow(argv, ctx);
  } catch (error) {
    if (error instanceof UsageError) return { kind: 'usage-error', message: error.message };
    throw error;
  }
}

function parseOrThrow(argv: readonly string[], ctx: ParseContext): ParsedCommand {
  // yargs would read "-1" as a negative number; it is the one-shot alias.
  const args = argv.map((arg) => (arg === '-1' ? '--oneshot' : arg));
  let parser = yargs(args)
    .help(false)
    .version(false)
    .exitProcess(false)
    .strictOptions()
    .parserConfiguration({ 'parse-positional-numbers': false, 'duplicate-arguments-array': true })
    .fail((message: string | undefined, error: Error | undefined) => {
      throw new UsageError(friendlier(message ?? error?.message ?? 'invalid arguments', args));
    });
  for (const flag of FLAGS) {
    parser = parser.option(flag.name, {
      type: flag.type,
      alias: flag.aliases ? [...flag.aliases] : undefined,
      array: flag.repeatable ? true : undefined,
    });
  }
  const a = parser.parseSync() as Record<string, unknown> & { _: (string | number)[] };

  if (a['help']) return { kind: 'help' };
  if (a['version']) return { kind: 'version' };
  const cwdFlag = lastString(a['cwd']);
  // Usually `-C "$DIR"` with DIR unset: working in the current directory instead would be a surprise.
  if (cwdFlag === '') throw new UsageError('-C/--cwd needs a directory');
  const cwd = resolveCwd(cwdFlag, ctx.cwd);
  if (a['init']) return { kind: 'init', cwd };

  const printGiven = a['print'] !== undefined;
  const words = [lastString(a['print']), ...a._.map(String)].filter((w): w is string => w !== undefined && w !== '');
  const prompt = words.length > 0 ? words.join(' ') : undefined;
  const json = a['json'] === true;
  const out = lastString(a['out']);
  if (printGiven && !prompt) throw new UsageError('-p/--print needs a prompt, e.g. lwyrm -p "add tests for utils.ts"');
  if (json && !printGiven) throw new UsageError('--json only works with -p/--print (one-shot mode)');
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

  const options: CliOptions = {
    ...(prompt !== undefined ? { prompt } : {}),
    oneShot: printGiven || (prompt !== undefined && !ctx.interactive),
    json,
    ...(out !== undefined ? { out } : {}),
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
  if (a['map']) return { kind: 'map', options };
  if (!options.oneShot && !ctx.interactive) {
    throw new UsageError('no terminal to open a full-screen session in: give a prompt (lwyrm -p "…") to run once');
  }
  return { kind: 'run', options };
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

function friendlier(message: string, args: readonly string[]): string {
  if (!/^Unknown arguments?:/.test(message)) return message;
  // yargs reports names after its own rewriting (--no-x becomes x, camelCase copies); quote what was typed.
  const known = new Set(FLAGS.flatMap((f) => [f.name, ...(f.aliases ?? []), ...(f.type === 'boolean' ? [`no-${f.name}`] : [])]));
  const end = args.indexOf('--');
  const typed = (end < 0 ? args : args.slice(0, end))
    .filter((arg) => arg.startsWith('-') && arg !== '-')
    .map((arg) => arg.split('=')[0] ?? arg)
    .filter((arg) => !known.has(arg.replace(/^--?/, '')));
  const names = typed.length > 0 ? [...new Set(typed)] : [message.replace(/^Unknown arguments?: /, '')];
  return `unknown option${names.length > 1 ? 's' : ''} ${names.join(', ')} (lwyrm --help lists them)`;
}
