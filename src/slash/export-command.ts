/**
 * /export [file]: the transcript as Markdown, so nothing stays trapped in the alternate screen.
 * It is a write like any other — the file goes through write_file, so the policy judges it (an
 * approval with the diff when writes are confirmed, a refusal under --read-only), the write is
 * atomic, and the audit log has its decision and its outcome.
 */
import { isAbsolute, join } from 'node:path';
import { auditOutcome } from '../tools/registry.js';
import type { AuditNote } from '../tools/types.js';
import { writeFileTool } from '../tools/write-file.js';
import { transcriptMarkdown } from './transcript-markdown.js';
import type { SlashContext, SlashReply } from './types.js';

export async function exportCommand(ctx: SlashContext): Promise<SlashReply> {
  const state = ctx.state();
  const name = ctx.rest === '' ? `lindwyrm-${state.sessionId || 'session'}.md` : ctx.rest;
  const path = isAbsolute(name) ? name : join(state.projectRoot, name);
  const audit: AuditNote = {};
  const call = { ...ctx.toolContext(), audit };
  const result = await writeFileTool.run({ path: name, content: transcriptMarkdown(state) }, call);
  await auditOutcome(call, writeFileTool.name, result, audit);
  return result.ok ? { kind: 'text', text: `Transcript written to ${path}` } : { kind: 'error', text: `Could not write ${path}: ${result.content}` };
}
