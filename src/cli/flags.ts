/**
 * Every command-line flag, in one table: the parser is configured from it and --help is printed
 * from it, so a flag cannot exist without its one-line explanation. No imports: --help and
 * --version read this without loading yargs or anything else.
 */

export interface FlagSpec {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly type: 'boolean' | 'string';
  /** Placeholder shown in --help for a string flag. */
  readonly arg?: string;
  readonly describe: string;
  /** Shown in --help as the negated form too (--no-save). */
  readonly negatable?: boolean;
  readonly repeatable?: boolean;
}

export const ALLOW_KINDS = ['read', 'write', 'delete', 'bash'] as const;
export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export const INPUT_FORMATS = ['text', 'stream-json'] as const;
export const THINKING_EFFORTS = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

export const FLAGS: readonly FlagSpec[] = [
  { name: 'model', aliases: ['m'], type: 'string', arg: 'PRESET', describe: 'preset to use: flash, pro, ollama[:MODEL], lmstudio[:MODEL] (no MODEL: the one the server has loaded) or one from your config' },
  { name: 'cwd', aliases: ['C'], type: 'string', arg: 'DIR', describe: 'project root (default: the current directory)' },
  { name: 'print', aliases: ['p', 'oneshot', '1'], type: 'string', arg: 'PROMPT', describe: 'run one task without the full screen, print the answer, then exit (-p - reads the task from stdin)' },
  { name: 'json', type: 'boolean', describe: 'with -p: print one JSON object (status, result, usage, cost, denied calls) at the end' },
  { name: 'output-format', type: 'string', arg: 'FMT', describe: `with -p: ${OUTPUT_FORMATS.join(' | ')} (json is --json; stream-json prints one event a line)` },
  { name: 'input-format', type: 'string', arg: 'FMT', describe: `with -p: ${INPUT_FORMATS.join(' | ')} (stream-json reads user messages as JSON lines until stdin ends)` },
  { name: 'include-partial-messages', type: 'boolean', describe: 'with --output-format stream-json: also stream text and thinking deltas' },
  { name: 'raw', type: 'boolean', describe: 'with -p: print the answer\'s control sequences as they are (default: shown as escapes, on a pipe too)' },
  { name: 'out', type: 'string', arg: 'FILE', describe: 'with -p: write the final answer to FILE instead of stdout (stderr says where)' },
  { name: 'continue', aliases: ['c'], type: 'boolean', describe: 'resume the session last worked in for this project' },
  { name: 'resume', type: 'string', arg: 'ID', describe: 'resume a saved session by id (or a unique prefix)' },
  { name: 'save', type: 'boolean', negatable: true, describe: 'keep nothing on disk: no saved session, no offloaded results' },
  { name: 'read-only', type: 'boolean', describe: 'answer only: never write, delete or run commands' },
  { name: 'thinking', type: 'boolean', negatable: true, describe: 'turn the model\'s reasoning on or off (default: the preset\'s setting)' },
  { name: 'thinking-effort', type: 'string', arg: 'LEVEL', describe: `how hard the model thinks: ${THINKING_EFFORTS.join(' | ')}` },
  { name: 'allow', type: 'string', arg: 'KIND', repeatable: true, describe: `pre-approve ${ALLOW_KINDS.join('|')} for this run (repeatable)` },
  { name: 'proxy', type: 'string', arg: 'URL', describe: 'send API traffic through this proxy (overrides config; localhost stays direct)' },
  { name: 'init', type: 'boolean', describe: 'write a starter AGENTS.md with the project\'s build, test and lint commands and exit (no API key needed; never overwrites)' },
  { name: 'map', type: 'boolean', describe: 'print the project\'s code map and exit (no API key needed)' },
  { name: 'rewind', type: 'string', arg: '[N]', describe: 'restore the files of checkpoint N (default: the last turn) of the last session, or of --resume ID; print what it restored and exit (2: no such N)' },
  { name: 'verbose', aliases: ['v'], type: 'boolean', describe: 'log requests, retries and timings to stderr' },
  { name: 'version', type: 'boolean', describe: 'print the version and exit' },
  { name: 'help', aliases: ['h'], type: 'boolean', describe: 'show this help and exit' },
];

function flagLabel(flag: FlagSpec): string {
  const short = (flag.aliases ?? []).filter((a) => a.length === 1).map((a) => `-${a}`);
  const long = [flag.name, ...(flag.aliases ?? []).filter((a) => a.length > 1)].map((n) => `--${n}`);
  const names = flag.name === 'save' ? ['--no-save'] : flag.negatable ? [`--${flag.name}`, `--no-${flag.name}`] : [...short, ...long];
  return `${names.join(', ')}${flag.arg ? ` ${flag.arg}` : ''}`;
}

export function helpText(): string {
  const rows = FLAGS.map((flag) => [flagLabel(flag), flag.describe] as const);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const lines = [
    'Usage: lwyrm [options] [prompt..]',
    '       lwyrm acp             run as an Agent Client Protocol agent on stdio (Zed, JetBrains IDEs)',
    '',
    'A coding agent for the terminal. Without -p it opens a full-screen session in the project;',
    'a prompt given on the command line runs first. With stdout not a terminal, a prompt runs once.',
    '',
    'Options:',
    ...rows.map(([label, text]) => `  ${label.padEnd(width)}${text}`),
    '',
    'Exit status: 0 finished, 1 API or runtime error, 2 usage error, 3 incomplete, 4 session not saved, 130 interrupted',
    '(with -p: 143 on SIGTERM, 129 on SIGHUP, 141 when stdout is closed).',
    'Config: ~/.config/lindwyrm/config.toml and ./.lindwyrm.toml; keys come from api_key_env (DEEPSEEK_API_KEY).',
  ];
  return `${lines.join('\n')}\n`;
}
