/** The commands about the conversation itself: its context, its saved sessions, a new one, help. */
import { initMessage, writeStarterAgentsFile } from '../cli/init-agents.js';
import { formatContextPanel } from '../context/format-context-panel.js';
import { describeResend } from '../context/resend-cost.js';
import { recordToData } from '../agent/session-record.js';
import { formatCommandList } from './help.js';
import type { SlashContext, SlashReply } from './types.js';

export async function contextCommand({ session, contextNotes }: SlashContext): Promise<SlashReply> {
  const rt = session.runtime;
  const stats = await rt.context.stats(rt.session.history, rt.system);
  const notes = (await contextNotes?.()) ?? [];
  return { kind: 'panel', panel: 'context', text: [...formatContextPanel(stats), ...notes].join('\n') };
}

export async function compactCommand({ session, rest }: SlashContext): Promise<SlashReply> {
  const rt = session.runtime;
  const before = rt.context.gauge?.(rt.session.history, rt.system).usedTokens;
  const result = await rt.context.compact(rt.session.history, rt.system, rest || undefined);
  if (result.action === 'none') return { kind: 'text', text: result.detail ?? 'Nothing to compact yet.' };
  // The same estimate the notice before an automatic summary gives, from what the conversation became.
  const resend = result.action === 'summarized' && result.tokensAfter !== undefined && before !== undefined ? describeResend(result.tokensAfter, before, rt.preset) : '';
  session.replaceHistory(result.messages);
  // A summary rewrote the prefix: refresh the prompt's snapshots (an offload alone did not).
  if (result.action === 'summarized') session.rewritePrompt();
  await session.persist();
  return { kind: 'text', text: [result.detail ?? `Context ${result.action}.`, resend].filter(Boolean).join('\n') };
}

export async function sessionsCommand({ session, store, args }: SlashContext): Promise<SlashReply> {
  if (!store) return { kind: 'error', text: 'Sessions are not saved in this run (--no-save).' };
  const [sub, id] = args;
  if (sub === 'resume' || sub === 'delete') {
    if (!id) return { kind: 'error', text: `Usage: /sessions ${sub} ID` };
    if (sub === 'delete') {
      if (id === session.runtime.session.id) return { kind: 'error', text: 'That is the session in use; /clear first.' };
      await store.delete(id);
      return { kind: 'text', text: `Deleted session ${id}.` };
    }
    const record = await store.load(id);
    await session.open(recordToData(record));
    return { kind: 'text', text: `Resumed session ${record.id} (${record.turns} turns).` };
  }
  const list = await store.list();
  const rows = list.sessions.map(
    (s) => `${s.id}  ${s.updatedAt}  ${s.turns} turns  ${s.tokens} tokens${s.cost === null ? '' : `  $${s.cost.toFixed(4)}`}  ${s.firstPrompt.replace(/\s+/g, ' ').slice(0, 60)}`,
  );
  const text = [...(rows.length ? rows : ['No saved sessions in this project yet.']), ...list.problems].join('\n');
  return { kind: 'sessions', text, sessions: list.sessions };
}

export async function clearCommand({ session }: SlashContext): Promise<SlashReply> {
  await session.open('new');
  return { kind: 'text', text: `New session ${session.runtime.session.id}. Saved sessions are kept.` };
}

/** /init: a starter AGENTS.md with the project's own build, test and lint commands; never over an existing one. */
export async function initCommand({ session }: SlashContext): Promise<SlashReply> {
  const rt = session.runtime;
  // A read-only session writes nothing into the project, even a file the user asked for.
  if (rt.readOnly) return { kind: 'error', text: 'This session is read-only (--read-only): /init writes nothing. Run lwyrm --init instead.' };
  const result = await writeStarterAgentsFile(rt.config.projectRoot);
  return result.written ? { kind: 'text', text: initMessage(result) } : { kind: 'error', text: `${result.path}: ${result.reason}` };
}

export function helpCommand({ commands }: SlashContext): SlashReply {
  return { kind: 'panel', panel: 'help', text: `Commands\n${formatCommandList(commands())}` };
}
