/**
 * argv → CliOptions, or what to do instead (help, version, init, map) or a usage error.
 * Pure apart from resolving -C on disk: the caller decides what to print and the exit status.
 */
import yargs from 'yargs';
import { FLAGS } from './flags.js';
import { catchUsage, interpretArgs, UsageError, type ParseContext, type ParsedCommand, type ParsedWords } from './interpret-args.js';

export { parsePlainWords, type ParseContext, type ParsedCommand } from './interpret-args.js';

export function parseArgs(argv: readonly string[], ctx: ParseContext): ParsedCommand {
  return catchUsage(() => parseOrThrow(argv, ctx));
}

function parseOrThrow(argv: readonly string[], ctx: ParseContext): ParsedCommand {
  // yargs would read "-1" as a negative number; it is the one-shot alias.
  const args = argv.map((arg) => (arg === '-1' ? '--oneshot' : arg));
  checkBooleanValues(args);
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
  return interpretArgs(parser.parseSync() as ParsedWords, ctx);
}

/**
 * yargs reads `--read-only=yes` as false: a switch given a value it does not understand would be
 * silently turned off, the opposite of what was asked. Only true and false are taken.
 */
function checkBooleanValues(args: readonly string[]): void {
  const switches = new Set(FLAGS.filter((f) => f.type === 'boolean').flatMap((f) => [f.name, ...(f.aliases ?? [])]));
  const end = args.indexOf('--');
  for (const arg of end < 0 ? args : args.slice(0, end)) {
    const match = /^--(no-)?([^=]+)=(.*)$/s.exec(arg);
    if (!match || !switches.has(match[2] ?? '') || match[3] === 'true' || match[3] === 'false') continue;
    const name = match[2] ?? '';
    throw new UsageError(`--${match[1] ?? ''}${name} takes no value (got "${match[3] ?? ''}"): write --${name}${name === 'save' || switchNegatable(name) ? ` or --no-${name}` : ''}`);
  }
}

function switchNegatable(name: string): boolean {
  return FLAGS.some((f) => f.name === name && f.negatable === true);
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
