/** The parsed command line, as the rest of the program sees it (parsing lives in cli/parse-args.ts). */
import type { ToolKind } from '../config/types.js';
import type { ThinkingEffort } from '../providers/types.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';
export type InputFormat = 'text' | 'stream-json';

export interface CliOptions {
  /** The task: -p's value, or the positional prompt words joined with spaces. */
  readonly prompt?: string;
  /** One-shot mode (-p / --print / --oneshot / -1, or a prompt with stdout not a TTY). */
  readonly oneShot: boolean;
  /** --json, or --output-format json. */
  readonly json: boolean;
  /** --output-format: text (default), json (= --json), stream-json (one event a line). */
  readonly outputFormat?: OutputFormat;
  /** --input-format stream-json: user messages as JSON lines on stdin, until it ends. */
  readonly inputFormat?: InputFormat;
  /** --include-partial-messages: text and thinking deltas as stream-json events. */
  readonly includePartial?: boolean;
  readonly out?: string;
  /** --raw: the answer's terminal control sequences go to stdout unescaped. */
  readonly raw?: boolean;
  /** -m: a preset name, or 'ollama:MODEL' / 'lmstudio:MODEL'. */
  readonly model?: string;
  /** Real path of the project root (-C, default the current directory). */
  readonly cwd: string;
  readonly continueLast: boolean;
  readonly resume?: string;
  /** False with --no-save: nothing is written to disk. */
  readonly save: boolean;
  readonly readOnly: boolean;
  /** Undefined: the preset decides. */
  readonly thinking?: boolean;
  readonly thinkingEffort?: ThinkingEffort;
  readonly allow: readonly ToolKind[];
  /** --proxy URL: overrides every other proxy setting (localhost stays direct). */
  readonly proxy?: string;
  readonly verbose: boolean;
}
