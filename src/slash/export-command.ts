/**
 * /export [file]: the transcript as Markdown, so nothing stays trapped in the alternate screen.
 *
 * Without a file it is lindwyrm's own data, like a saved session: a file per session under the
 * data dir (`exports/<session>.md`, the folder 0700 and the file 0600), never an untracked file in
 * the user's repository. The engine writes it atomically, without a question (under --read-only
 * too: that guards the project, not lindwyrm's data), and the audit log records it.
 *
 * A file the user names is a write like any other: it goes through write_file, so the policy
 * judges it (an approval with the diff when writes are confirmed, a refusal under --read-only),
 * the write is atomic, and the audit log has its decision and its outcome.
 */
import { mkdir } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { writeFileAtomic } from '../io/atomic-write.js';
import { writeAudit } from '../policy/audit-log.js';
import { expandHome } from '../policy/resolve-path.js';
import { secretEnvNames } from '../secrets/secret-names.js';
import { auditOutcome } from '../tools/registry.js';
import type { AuditNote } from '../tools/types.js';
import { writeFileTool } from '../tools/write-file.js';
import { transcriptMarkdown } from './transcript-markdown.js';
import type { SlashContext, SlashReply } from './types.js';

/** The audit log's name for the default export (it is not a tool call). */
const AUDIT_TOOL = '/export';

/** Where `/export` with no file writes: one file per session under lindwyrm's data dir. */
export function defaultExportPath(dataDir: string, sessionId: string): string {
  return join(dataDir, 'exports', `${sessionId || 'session'}.md`);
}

async function exportToDataDir(ctx: SlashContext, markdown: string): Promise<SlashReply> {
  const { config, sessionId } = ctx.toolContext();
  const path = defaultExportPath(ctx.dataDir, sessionId);
  const names = secretEnvNames(config);
  await writeAudit(
    config.auditLog,
    { session: sessionId, tool: AUDIT_TOOL, event: 'decision', target: path, decision: 'allow', reason: "lindwyrm's own data dir (not the project)" },
    names,
  );
  try {
    await mkdir(join(ctx.dataDir, 'exports'), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, markdown);
  } catch (error) {
    await writeAudit(config.auditLog, { session: sessionId, tool: AUDIT_TOOL, event: 'outcome', target: path, status: 'error' }, names);
    return { kind: 'error', text: `Could not write ${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
  await writeAudit(config.auditLog, { session: sessionId, tool: AUDIT_TOOL, event: 'outcome', target: path, status: 'ok' }, names);
  return { kind: 'text', text: `Transcript written to ${path}` };
}

async function exportToFile(ctx: SlashContext, name: string, markdown: string): Promise<SlashReply> {
  const audit: AuditNote = {};
  const call = { ...ctx.toolContext(), audit };
  const result = await writeFileTool.run({ path: name, content: markdown }, call);
  await auditOutcome(call, writeFileTool.name, result, audit);
  // The path the policy judged (links and `..` resolved), else the name as the tool would read it.
  const expanded = expandHome(name);
  const path = result.target ?? audit.target ?? (isAbsolute(expanded) ? expanded : join(call.projectRoot, expanded));
  return result.ok ? { kind: 'text', text: `Transcript written to ${path}` } : { kind: 'error', text: `Could not write ${path}: ${result.content}` };
}

export async function exportCommand(ctx: SlashContext): Promise<SlashReply> {
  const markdown = transcriptMarkdown(ctx.state());
  return ctx.rest === '' ? exportToDataDir(ctx, markdown) : exportToFile(ctx, ctx.rest, markdown);
}
