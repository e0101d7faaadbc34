import { useCallback } from 'react';
import type { SlashResult } from '../src/agent/state.js';
import type { SessionSummary } from '../src/sessions/types.js';
import type { RewindView } from '../src/rewind/rewind-command.js';

/** How the rewind picker names the files it overwrites when only some are chosen. */
export { overwriteWord } from '../src/rewind/rewind-command.js';
import type { ApprovalDecision } from '../src/policy/types.js';
import { BUILTIN_SLASH_INFO } from '../src/slash/builtin-info.js';
import { formatCommandList } from '../src/slash/help.js';
import { useEngine } from './engine-context.js';
import { PROMPT_TAKEN_BACK } from '../src/agent/notices.js';

/** A SlashResult as the view reads it: /sessions may carry the list to browse. */
export type ViewSlashResult = SlashResult & { readonly sessions?: readonly SessionSummary[] };

/** What the view should do after a command. */
export type CommandEffect =
  | { readonly kind: 'none' }
  | { readonly kind: 'exit' }
  | { readonly kind: 'flash'; readonly text: string; readonly error?: boolean }
  | { readonly kind: 'panel'; readonly title: string; readonly text: string }
  /** The help panel: the engine's command list, formatted; the view adds its keys. */
  | { readonly kind: 'help'; readonly commandList: string }
  | { readonly kind: 'sessions'; readonly sessions: readonly SessionSummary[] }
  /** Send this as the user's prompt (a command that expands to one). */
  | { readonly kind: 'prompt'; readonly text: string }
  /** /rewind: the picker's list of checkpoints, or its preview of going back to one. */
  | { readonly kind: 'rewind'; readonly view: RewindView }
  /** A rewind was done: what it did, and the prompt to put back in the input (a conversation rewind). */
  | { readonly kind: 'rewound'; readonly text: string; readonly input?: string };

function effectOf(command: string, result: ViewSlashResult): CommandEffect {
  if (result.exit) return { kind: 'exit' };
  if (result.prompt !== undefined) return { kind: 'prompt', text: result.prompt };
  if (result.panel === 'sessions') return { kind: 'sessions', sessions: result.sessions ?? [] };
  if (result.kind === 'rewind' && result.rewind) return { kind: 'rewind', view: result.rewind };
  if (result.kind === 'rewound') return { kind: 'rewound', text: result.output ?? '', ...(result.input !== undefined ? { input: result.input } : {}) };
  const output = result.output?.replace(/\n+$/, '') ?? '';
  if (output === '') return { kind: 'none' };
  // A failed command's line shows as an error, not as news.
  if (!output.includes('\n') && output.length <= 160) return { kind: 'flash', text: output, ...(result.error ? { error: true } : {}) };
  return { kind: 'panel', title: command.split(/\s/)[0]!, text: output };
}

/** The engine's commands as the view uses them: slash commands, prompts, approvals. */
export function useCommands() {
  const engine = useEngine();

  const runSlash = useCallback(
    async (text: string): Promise<CommandEffect> => {
      const name = text.trim().split(/\s+/)[0] ?? '';
      // Leaving and help are the view's own: they work at once, even while the engine starts.
      if (name === '/exit' || name === '/quit') return { kind: 'exit' };
      if (name === '/help') return { kind: 'help', commandList: formatCommandList(engine.getSnapshot().commands ?? BUILTIN_SLASH_INFO) };
      try {
        return effectOf(text.trim(), (await engine.runSlash(text.trim())) as ViewSlashResult);
      } catch (error) {
        return { kind: 'flash', text: `${name}: ${(error as Error).message}`, error: true };
      }
    },
    [engine],
  );

  // Whether a turn runs is the engine's to say (SessionState.busy): it reports a turn's end only
  // once it takes the next prompt, so nothing here counts turns in flight.
  const submit = useCallback(
    (text: string, onRefused?: (detail: string) => void): void => {
      const before = engine.getSnapshot().blocks.length;
      // "!command": a shell command the user runs themselves (src/agent/user-shell.ts).
      const shell = /^!\s*\S/.test(text) ? text.replace(/^!\s*/, '') : undefined;
      (shell !== undefined ? engine.submit(shell, { shell: true }) : engine.submit(text)).then(
        (outcome) => {
          // Errors of a turn that ran are in the transcript; a refusal leaves no trace there.
          const since = engine.getSnapshot().blocks.slice(before);
          const started = since.some((b) => b.kind === 'user');
          // A prompt whose request failed before any reply was taken back out of the conversation:
          // it comes back to the input, ready to send again.
          const takenBack = since.some((b) => b.kind === 'notice' && b.text === PROMPT_TAKEN_BACK);
          if ((!started || takenBack) && outcome.status === 'error') onRefused?.(outcome.detail ?? 'the engine did not take it');
        },
        (error: unknown) => onRefused?.(error instanceof Error ? error.message : String(error)),
      );
    },
    [engine],
  );

  const interrupt = useCallback(() => engine.interrupt(), [engine]);
  const answer = useCallback((id: string, decision: ApprovalDecision, note?: string) => engine.answer(id, decision, note), [engine]);
  const answerQuestion = useCallback((id: string, value: string) => engine.answerQuestion?.(id, value), [engine]);
  // Read when Tab completes: the servers' lists arrive after the view is up.
  const mentionResources = useCallback((): readonly string[] => engine.mentionResources?.() ?? [], [engine]);
  return { runSlash, submit, interrupt, answer, answerQuestion, mentionResources };
}
