/**
 * `@path` in a prompt: the file (or folder) is read for the model before the prompt goes out, as a
 * read_file (or list_dir) call the user made, so the model need not ask for it. The read goes
 * through the tool and its policy like any other (a denied path is refused, not read) and through
 * the context manager (a large file is offloaded like any large result). A word after @ that is
 * not a path (an e-mail, a decorator) is left alone.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ContentBlock, Message } from '../providers/types.js';
import { absent } from '../diagnostics/ignore-error.js';
import { createLoopDetector } from './loop-detector.js';
import { runToolCalls, type ToolCallsEnv, type ToolUse } from './tool-calls.js';

/** At most this many files are attached to one prompt. */
export const MAX_MENTIONS = 10;

/** The paths mentioned with @ in `text`, in order, once each (trailing punctuation dropped). */
export function mentionedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const p = m[1]!.replace(/[,.;:!?)\]'"]+$/, '');
    if (p !== '' && !out.includes(p)) out.push(p);
  }
  return out.slice(0, MAX_MENTIONS);
}

export type MentionEnv = Omit<ToolCallsEnv, 'loops' | 'loopWindow'> & { readonly projectRoot: string };

const PREFIX = 'The user attached';

/**
 * Reads what the prompt mentions; the user message of results to put before the prompt, or
 * undefined when nothing was mentioned that exists.
 */
export async function attachMentions(text: string, env: MentionEnv): Promise<Message | undefined> {
  const calls: ToolUse[] = [];
  for (const mentioned of mentionedPaths(text)) {
    const full = path.resolve(env.projectRoot, mentioned.startsWith('~/') ? path.join(process.env['HOME'] ?? '', mentioned.slice(2)) : mentioned);
    const st = await stat(full).catch(absent);
    if (!st) continue;
    const name = st.isDirectory() ? 'list_dir' : 'read_file';
    if (!env.tools.get(name)) continue;
    calls.push({ type: 'tool_use', id: `mention-${calls.length + 1}`, name, input: { path: mentioned } });
  }
  if (calls.length === 0) return undefined;
  const { results } = await runToolCalls({ ...env, loops: createLoopDetector(0), loopWindow: 0 }, calls, { count: 0 });
  const blocks: ContentBlock[] = results.map((r, i) => {
    const call = calls[i]!;
    const p = (call.input as { path: string }).path;
    const what = call.name === 'list_dir' ? 'folder' : 'file';
    const head = r.isError ? `${PREFIX} @${p}, but it could not be read (${call.name}):` : `${PREFIX} the ${what} @${p} (${call.name} result):`;
    return { type: 'text', text: `${head}\n${r.content}` };
  });
  return { role: 'user', content: blocks };
}

/** Whether `message` is only what attachMentions made (the prompt after it was taken back). */
export function isOnlyAttachments(message: Message | undefined): boolean {
  return message?.role === 'user' && message.content.length > 0 && message.content.every((b) => b.type === 'text' && b.text.startsWith(PREFIX));
}
