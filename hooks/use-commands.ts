import { useCallback, useState } from 'react';
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { SlashResult } from '../src/agent/state.js';
import type { SessionSummary } from '../src/sessions/types.js';
import type { RewindView } from '../src/rewind/rewind-command.js';
import type { ApprovalDecision } from '../src/policy/types.js';
import { transcriptMarkdown } from '../components/export-markdown.js';
import { helpText } from '../components/composer/slash-commands.js';
import { useEngine } from './engine-context.js';

/** A SlashResult as the view reads it: /sessions may carry the list to browse. */
export type ViewSlashResult = SlashResult & { readonly sessions?: readonly SessionSummary[] };

/** What the view should do after a command. */
export type CommandEffect =
  | { readonly kind: 'none' }
  | { readonly kind: 'exit' }
  | { readonly kind: 'flash'; readonly text: string; readonly error?: boolean }
  | { readonly kind: 'panel'; readonly title: string; readonly text: string }
  | { readonly kind: 'sessions'; readonly sessions: readonly SessionSummary[] }
  /** /rewind: the picker's list of checkpoints, or its preview of going back to one. */
  | { readonly kind: 'rewind'; readonly view: RewindView }
  /** A rewind was done: what it did, and the prompt to put back in the input (a conversation rewind). */
  | { readonly kind: 'rewound'; readonly text: string; readonly input?: string };

function effectOf(command: string, result: ViewSlashResult): CommandEffect {
  if (result.exit) return { kind: 'exit' };
  if (result.panel === 'sessions') return { kind: 'sessions', sessions: result.sessions ?? [] };
  if (result.rewind) return { kind: 'rewind', view: result.rewind };
  if (!result.error && command.startsWith('/rewind ') && / confirm\b/.test(command)) {
    return { kind: 'rewound', text: result.output ?? '', ...(result.input !== undefined ? { input: result.input } : {}) };
  }
  const output = result.output?.replace(/\n+$/, '') ?? '';
  if (output === '') return { kind: 'none' };
  // A failed command's line shows as an error, not as news.
  if (!output.includes('\n') && output.length <= 160) return { kind: 'flash', text: output, ...(result.error ? { error: true } : {}) };
  return { kind: 'panel', title: command.split(/\s/)[0]!, text: output };
}

/** The engine's commands as the view uses them: slash commands, /export, sessions actions. */
export function useCommands() {
  const engine = useEngine();

  const exportTranscript = useCallback(
    async (arg: string): Promise<CommandEffect> => {
      const state = engine.getSnapshot();
      const name = arg.trim() === '' ? `lindwyrm-${state.sessionId || 'session'}.md` : arg.trim();
      const path = isAbsolute(name) ? name : join(state.projectRoot, name);
      try {
        await writeFile(path, transcriptMarkdown(state), { encoding: 'utf8', mode: 0o600 });
        return { kind: 'flash', text: `Transcript written to ${path}` };
      } catch (error) {
        return { kind: 'flash', text: `Could not write ${path}: ${(error as Error).message}`, error: true };
      }
    },
    [engine],
  );

  const runSlash = useCallback(
    async (text: string): Promise<CommandEffect> => {
      const name = text.trim().split(/\s+/)[0] ?? '';
      const arg = text.trim().slice(name.length).trim();
      if (name === '/exit' || name === '/quit') return { kind: 'exit' };
      if (name === '/help') return { kind: 'panel', title: '/help', text: helpText() };
      if (name === '/export') return exportTranscript(arg);
      try {
        return effectOf(text.trim(), (await engine.runSlash(text.trim())) as ViewSlashResult);
      } catch (error) {
        return { kind: 'flash', text: `${name}: ${(error as Error).message}`, error: true };
      }
    },
    [engine, exportTranscript],
  );

  // A turn counts as running from submit() until its promise settles: the store says a turn has
  // ended a moment before the engine is ready for the next one (it still saves the session).
  const [inflight, setInflight] = useState(0);
  const submit = useCallback(
    (text: string, onRefused?: (detail: string) => void): void => {
      const before = engine.getSnapshot().blocks.length;
      setInflight((n) => n + 1);
      engine
        .submit(text)
        .then(
          (outcome) => {
            // Errors of a turn that ran are in the transcript; a refusal leaves no trace there.
            const started = engine.getSnapshot().blocks.slice(before).some((b) => b.kind === 'user');
            if (!started && outcome.status === 'error') onRefused?.(outcome.detail ?? 'the engine did not take it');
          },
          (error: unknown) => onRefused?.(error instanceof Error ? error.message : String(error)),
        )
        .finally(() => setInflight((n) => n - 1));
    },
    [engine],
  );

  const interrupt = useCallback(() => engine.interrupt(), [engine]);
  const answer = useCallback((id: string, decision: ApprovalDecision) => engine.answer(id, decision), [engine]);
  return { runSlash, submit, interrupt, answer, inflight: inflight > 0 };
}
