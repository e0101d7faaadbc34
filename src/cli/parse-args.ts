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
