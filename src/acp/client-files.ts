/**
 * File text for an ACP session. When the client advertises fs/read_text_file and
 * fs/write_text_file, reads and writes go through it, so the agent sees the editor's unsaved
 * buffers and its edits land in them; otherwise the disk. Either way the tools have already
 * resolved the path and the policy has judged it: this is only where the bytes come from and go.
 * Every write is reported, so the editor can show it as a diff on the tool call.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../io/atomic-write.js';
import type { FileAccess } from '../tools/types.js';
import type { PermissionPeer } from './permission.js';
import { absent } from '../diagnostics/ignore-error.js';

export interface FsCapabilities {
  readonly readTextFile: boolean;
  readonly writeTextFile: boolean;
}

export function createSessionFiles(opts: {
  peer: PermissionPeer;
  capabilities: FsCapabilities;
  sessionId: () => string;
  onWrite: (path: string, oldText: string | null, newText: string) => void;
}): FileAccess {
  const readText = async (path: string): Promise<string> => {
    if (!opts.capabilities.readTextFile) return readFile(path, 'utf8');
    const response = (await opts.peer.request('fs/read_text_file', { sessionId: opts.sessionId(), path })) as { content?: unknown } | null;
    if (typeof response?.content !== 'string') throw new Error(`the editor sent no text for ${path}`);
    return response.content;
  };
  return {
    readText,
    async writeText(path, content) {
      // A file that is not there yet (or not readable) has no old text to show.
      const before = (await readText(path).catch(absent)) ?? null;
      if (opts.capabilities.writeTextFile) await opts.peer.request('fs/write_text_file', { sessionId: opts.sessionId(), path, content });
      else await writeFileAtomic(path, content, { mode: 'keep' });
      opts.onWrite(path, before, content);
    },
  };
}

const field = (input: unknown, name: string): unknown =>
  typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;

/**
 * The change write_file or edit_file proposes, as old and new text for the permission prompt.
 * edit_file's real work (line endings, a unique match) happens in the tool; this is a preview.
 */
export async function proposedChange(
  files: FileAccess,
  target: string | undefined,
  tool: string,
  input: unknown,
): Promise<{ path: string; oldText: string | null; newText: string } | undefined> {
  if (!target) return undefined;
  const old = (await files.readText(target).catch(absent)) ?? null;
  if (tool === 'write_file') {
    const content = field(input, 'content');
    return typeof content === 'string' ? { path: target, oldText: old, newText: content } : undefined;
  }
  if (tool !== 'edit_file' || old === null) return undefined;
  const from = field(input, 'old_string');
  const to = field(input, 'new_string');
  if (typeof from !== 'string' || typeof to !== 'string' || from === '' || !old.includes(from)) return undefined;
  const newText = field(input, 'replace_all') === true ? old.split(from).join(to) : old.replace(from, () => to);
  return { path: target, oldText: old, newText };
}
