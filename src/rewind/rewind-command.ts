/**
 * /rewind, as the engine runs it:
 *   /rewind                              the checkpoints, newest first (the view opens its picker)
 *   /rewind N [code|conversation|both]   a preview of going back to before N (default both)
 *   /rewind N PART confirm [overwrite]   do it; `overwrite` is the separate confirmation for files
 *                                        changed outside lindwyrm since (all of them), and
 *                                        `overwrite=PATH,PATH` for only these (each URI-encoded)
 * A conversation rewind truncates the history to before N's prompt and hands that prompt back for
 * the input; the next request then starts with exactly the messages the provider saw before it.
 */
import type { ConversationState } from './conversation-snapshot.js';
import { formatCheckpointLine, formatCheckpointList, formatPreview, formatReport } from './format.js';
import type { RewindPart } from './rewind-restore.js';
import type { OverwriteChoice } from './restore-plan.js';
import { RewindError } from './rewind-restore.js';
import type { Rewind } from './rewind-service.js';
import type { CheckpointSummary, RewindPreview } from './summaries.js';

export interface RewindCommandEnv {
  readonly rewind: Rewind;
  busy(): boolean;
  /** The conversation as it stands now. */
  conversation(): ConversationState;
  /** Puts an earlier conversation back (history, system prompt, turn count) and saves the session. */
  restoreConversation(state: ConversationState): Promise<void>;
}

/**
 * What the view gets: plain data for the picker, with its lines already written (the view shows
 * them as they are; the same words as `lwyrm --rewind` and the text fallback use).
 */
export type RewindView =
  | { readonly kind: 'list'; readonly checkpoints: readonly CheckpointSummary[]; readonly lines: readonly string[] }
  | { readonly kind: 'preview'; readonly part: RewindPart; readonly preview: RewindPreview; readonly text: string };

export interface RewindCommandResult {
  readonly text: string;
  readonly error?: boolean;
  readonly view?: RewindView;
  /** The prompt to put back in the input (after a conversation rewind). */
  readonly input?: string;
}

const PARTS: readonly RewindPart[] = ['code', 'conversation', 'both'];
export const REWIND_USAGE = 'Usage: /rewind [N [code|conversation|both] [confirm [overwrite|overwrite=PATH,…]]]';

/** The word the picker sends to overwrite only some of the files changed outside lindwyrm. */
export function overwriteWord(paths: readonly string[]): string {
  return `overwrite=${paths.map(encodeURIComponent).join(',')}`;
}

/** 'overwrite' → all; 'overwrite=a,b' → those paths; anything else → undefined (a usage error). */
function parseOverwrite(word: string): OverwriteChoice | undefined {
  if (word === 'overwrite') return true;
  const m = /^overwrite=(.+)$/.exec(word);
  if (!m?.[1]) return undefined;
  try {
    return m[1].split(',').map((p) => decodeURIComponent(p));
  } catch {
    return undefined; // a malformed %-escape
  }
}

function parsePart(word: string | undefined): RewindPart | undefined {
  if (word === undefined) return 'both';
  if (word === 'conv') return 'conversation';
  return PARTS.find((p) => p === word);
}

export async function runRewindCommand(args: readonly string[], env: RewindCommandEnv): Promise<RewindCommandResult> {
  if (!env.rewind.enabled) return { text: 'Rewind is off (rewind_max_mb = 0).', error: true };
  if (env.busy()) return { text: '/rewind cannot run while a turn is running.', error: true };
  if (args.length === 0) {
    const checkpoints = await env.rewind.checkpoints();
    return { text: formatCheckpointList(checkpoints), view: { kind: 'list', checkpoints, lines: checkpoints.map(formatCheckpointLine) } };
  }
  const [idWord, partWord, confirm, overwrite, ...extra] = args;
  const id = /^\d{1,9}$/.test(idWord ?? '') ? Number(idWord) : NaN;
  const part = parsePart(partWord);
  const confirmed = confirm === 'confirm';
  const forced = overwrite === undefined ? false : parseOverwrite(overwrite);
  if (!Number.isInteger(id) || id < 1 || !part || (confirm !== undefined && !confirmed) || forced === undefined || (overwrite !== undefined && !confirmed) || extra.length > 0) {
    return { text: REWIND_USAGE, error: true };
  }
  const now = env.conversation();
  if (!confirmed) {
    const preview = await env.rewind.preview(id, part, now.history.length);
    if (!preview) return { text: unknownText(id, await env.rewind.checkpoints()), error: true };
    const text = formatPreview(preview, part);
    return { text, view: { kind: 'preview', part, preview, text } };
  }
  try {
    const report = await env.rewind.rewind({ id, part, overwriteChanged: forced, now });
    if (report.conversation) await env.restoreConversation(report.conversation);
    const prompt = report.target.kind === 'turn' && report.conversation ? report.target.prompt : undefined;
    return { text: formatReport(report), ...(prompt !== undefined ? { input: prompt } : {}) };
  } catch (error) {
    if (error instanceof RewindError) return { text: error.message, error: true };
    throw error;
  }
}

function unknownText(id: number, list: readonly CheckpointSummary[]): string {
  if (list.length === 0) return `No checkpoint ${id}: there are no checkpoints in this session yet.`;
  const ids = list.map((c) => c.id);
  return `No checkpoint ${id} in this session (checkpoints ${Math.min(...ids)}–${Math.max(...ids)}).`;
}
