/**
 * Slash commands as the engine registers them. The plain-data part (SlashCommandInfo) is what the
 * view gets, through SessionState.commands: it builds its help, Tab completion and argument hints
 * from it, so a command registered at runtime (a custom command, a protocol server's prompt) shows
 * up there without the view knowing it.
 */
import type { CliOptions } from '../cli/options.js';
import type { SessionSummary, SessionStore } from '../sessions/types.js';
import type { RewindView } from '../rewind/rewind-command.js';
import type { ToolContext } from '../tools/types.js';
import type { Session } from '../agent/session.js';
import type { SessionState } from '../agent/state.js';
import type { QuestionInput } from '../agent/questions.js';

export interface SlashCommandInfo {
  /** '/model', or '/server:prompt' for a protocol server's prompt. */
  readonly name: string;
  /** Other names that run it ('/quit'); completion and help show the name only. */
  readonly aliases?: readonly string[];
  /** The arguments as help shows them: '[on|off]', '<path> kind=level…'. */
  readonly args?: string;
  /** Values Tab completes the first argument to. */
  readonly choices?: readonly string[];
  /** One line: what it does. */
  readonly help: string;
  /**
   * Refused while a turn runs: always, or only with arguments ('/model' alone says which preset
   * is in use, '/model pro' switches).
   */
  readonly idle?: 'always' | 'with-arguments';
  /** Where it comes from, for help: built in, a custom command file, a server. Default built in. */
  readonly source?: string;
}

/** What a command did, tagged; the view decides how to show it. */
export type SlashReply =
  | { readonly kind: 'text'; readonly text: string }
  /** It did not do what was asked (unknown, bad arguments, refused): `text` says why. */
  | { readonly kind: 'error'; readonly text: string }
  /** A listing the view shows in a panel of its own ('presets', 'policy', 'context', 'help'). */
  | { readonly kind: 'panel'; readonly panel: string; readonly text: string }
  | { readonly kind: 'sessions'; readonly text: string; readonly sessions: readonly SessionSummary[] }
  /** Send `text` to the model as the user's prompt (a custom command, a server's prompt). */
  | { readonly kind: 'prompt'; readonly text: string }
  /** /rewind: the checkpoints for the picker, or a preview of going back to one (`text` says the same in words). */
  | { readonly kind: 'rewind'; readonly text: string; readonly view: RewindView }
  /** A rewind was done: what it did, and the prompt that goes back to the input (a conversation rewind). */
  | { readonly kind: 'rewound'; readonly text: string; readonly input?: string }
  | { readonly kind: 'exit' };

/** What the engine gives every command. */
export interface SlashEnv {
  readonly session: Session;
  readonly cli: CliOptions;
  readonly store?: SessionStore;
  busy(): boolean;
  /** The view's state as the engine has it (the transcript, for /export). */
  state(): SessionState;
  commands(): readonly SlashCommandInfo[];
  /** lindwyrm's own data folder (the XDG data dir): where /export writes by default. */
  readonly dataDir: string;
  /** A tool context for something the user asked outside a turn (/export writes under the policy). */
  toolContext(): ToolContext;
  /** Asks the user a question (the full screen), or takes its fallback where nothing can answer. */
  ask?(question: QuestionInput): Promise<string>;
  /** Why dollar budgets cannot be checked with the preset in use; undefined when they can. */
  budgetPriceWarning?(): string | undefined;
  /** Lines other parts add to /context about what they hold (what rewind keeps). */
  contextNotes?(): Promise<readonly string[]>;
}

export interface SlashContext extends SlashEnv {
  /** The name as typed (an alias stays an alias). */
  readonly name: string;
  /** The arguments split on whitespace, and the whole text after the name. */
  readonly args: readonly string[];
  readonly rest: string;
}

export interface SlashCommand extends SlashCommandInfo {
  run(ctx: SlashContext): Promise<SlashReply> | SlashReply;
}
