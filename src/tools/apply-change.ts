/**
 * The write path shared by write_file and edit_file: a unified diff in the approval, check-then-use
 * right before writing, parent folders inside the project, and an atomic write.
 */
import { createPatch } from 'diff';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { escapeFileName } from '../policy/escape.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { displayPath, gatePath, recheckPath, type PathAccess } from './path-access.js';
import { failure, success } from './results.js';
import type { ToolContext, ToolResult } from './types.js';
import { absent } from '../diagnostics/ignore-error.js';
import { fsPath } from '../io/byte-names.js';

export interface PlannedChange {
  readonly tool: 'write_file' | 'edit_file';
  readonly typed: string;
  readonly access: PathAccess;
  /** Current contents, or undefined for a new file. */
  readonly before: string | undefined;
  readonly after: string;
  /** Shown instead of a diff when the old contents cannot be diffed (binary, huge). */
  readonly replacing?: string;
}

/**
 * Past this edit distance (or time) the line diff gives up: its cost grows with size times edit
 * distance, and rewriting a 20,000-line file blocked the event loop for minutes.
 */
export const MAX_DIFF_EDITS = 2000;
const MAX_DIFF_MS = 1500;

/** A diff longer than this is not kept for the transcript (the counts still are). */
const MAX_KEPT_DIFF_CHARS = 256_000;

export const FULL_REPLACEMENT_NOTE = '(too different to diff line by line: shown as a full replacement)';

function splitForDiff(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** Every old line removed, every new one added: linear, for when the real diff gives up. */
function replacementPatch(name: string, a: string, b: string): string {
  const old = splitForDiff(a);
  const neu = splitForDiff(b);
  const range = (n: number) => `${n === 0 ? 0 : 1},${n}`;
  return [
    FULL_REPLACEMENT_NOTE,
    `--- ${name}`,
    `+++ ${name}`,
    `@@ -${range(old.length)} +${range(neu.length)} @@`,
    ...old.map((l) => `-${l}`),
    ...neu.map((l) => `+${l}`),
  ].join('\n') + '\n';
}

/** A diff preview longer than this is cut (at a line) and says how many lines it leaves out. */
export const MAX_PREVIEW_CHARS = 200_000;

/**
 * The patch createPatch makes for a new file — every line added — built in one pass, and cut at
 * MAX_PREVIEW_CHARS: a new file of many megabytes needs no line diff (whose arrays and text cost
 * several times the file), and no one reads a preview of a million lines.
 */
function newFilePatch(name: string, text: string): { text: string; added: number } {
  const added = countLines(text);
  const head = `Index: ${name}\n${'='.repeat(67)}\n--- ${name}\n+++ ${name}\n`;
  if (added === 0) return { text: head, added };
  const out = [head, `@@ -0,0 +1,${added} @@\n`];
  let chars = head.length;
  let shown = 0;
  for (let at = 0; at < text.length && shown < added; shown++) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    if (chars + end - at > MAX_PREVIEW_CHARS) break;
    out.push(`+${text.slice(at, end)}\n`);
    chars += end - at + 2;
    at = end + 1;
  }
  if (shown < added) out.push(`… ${added - shown} more added lines not shown (${added} in all)\n`);
  else if (!text.endsWith('\n')) out.push('\\ No newline at end of file\n');
  return { text: out.join(''), added };
}

export function unifiedDiff(name: string, before: string, after: string): { text: string; added: number; removed: number } {
  // CRLF is shown as plain lines: an escaped \r on every line would bury the change.
  const a = before.replace(/\r\n/g, '\n');
  const b = after.replace(/\r\n/g, '\n');
  if (a === '') {
    const made = newFilePatch(name, b);
    return { text: made.text, added: made.added, removed: 0 };
  }
  const text =
    createPatch(name, a, b, undefined, undefined, { context: 3, maxEditLength: MAX_DIFF_EDITS, timeout: MAX_DIFF_MS }) ??
    replacementPatch(name, a, b);
  let added = 0;
  let removed = 0;
  // Counted from the first hunk on: a removed "-- comment" line looks like a header line.
  let inHunks = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('@@')) inHunks = true;
    if (!inHunks) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { text, added, removed };
}

function countLines(text: string): number {
  if (text === '') return 0;
  // Counted in place: split would make a string per line of a file that may have millions.
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines - (text.endsWith('\n') ? 1 : 0);
}

/** The nearest existing ancestor of `dir` when it is not a folder (a file in the way), else undefined. */
async function fileInTheWay(dir: string): Promise<string | undefined> {
  for (let at = dir; ; at = path.dirname(at)) {
    const info = await stat(fsPath(at)).catch(absent);
    if (info !== undefined) return info.isDirectory() ? undefined : at;
    if (path.dirname(at) === at) return undefined;
  }
}

export async function applyChange(ctx: ToolContext, change: PlannedChange): Promise<ToolResult> {
  const { access, typed, tool } = change;
  const shown = displayPath(access.resolved);
  const diff = unifiedDiff(escapeFileName(shown), change.before ?? '', change.after);
  const isNew = change.before === undefined && change.replacing === undefined;
  const verb = isNew ? 'create' : tool === 'edit_file' ? 'edit' : 'overwrite';
  const counts = isNew ? `+${diff.added}` : `+${diff.added} -${diff.removed}`;
  const shownDiff = change.replacing !== undefined ? `${change.replacing}\n${diff.text}` : diff.text;
  const parent = path.dirname(access.resolved.realPath);
  if (!access.resolved.inside && !(await stat(fsPath(parent)).then((s) => s.isDirectory(), () => false))) {
    return failure(`${tool}: the folder ${parent} does not exist; folders are only created inside the project.`);
  }
  const blocker = access.resolved.exists ? undefined : await fileInTheWay(parent);
  if (blocker !== undefined) {
    return failure(`${tool}: cannot create ${shown}: ${blocker} is a file, not a folder.`);
  }
  const gate = await gatePath(ctx, tool, 'write', access, `${verb} ${shown} (${counts})`, shownDiff);
  if (!gate.ok) return gate.result;

  const refusal = await recheckPath(ctx, typed, access.resolved);
  if (refusal !== undefined) return failure(`${tool}: ${refusal}`, `refused: ${shown} changed`);
  const target = access.resolved.realPath;
  if (change.before !== undefined) {
    // Unreadable now counts as changed: nothing is written over what cannot be compared.
    const now = await (ctx.files ? ctx.files.readText(target) : readFile(fsPath(target), 'utf8')).catch(absent);
    if (now !== change.before) {
      return failure(`${tool}: ${shown} changed on disk while the change was waiting; nothing was written. Read it again and redo the change.`);
    }
  }
  if (access.resolved.inside) {
    await mkdir(fsPath(parent), { recursive: true });
  }
  // The user's file keeps its mode; a new one gets the umask's, as any editor's would.
  if (ctx.files) await ctx.files.writeText(target, change.after);
  else await writeFileAtomic(target, change.after, { mode: 'keep' });
  ctx.onFileChanged?.(target);
  // The diff the user approved, kept for the transcript (bounded: a rewrite of a huge file is not).
  const kept = shownDiff.length <= MAX_KEPT_DIFF_CHARS ? { diff: shownDiff } : {};
  const summary = { path: shown, added: diff.added, removed: diff.removed, ...kept };
  if (isNew) return success(`Created ${shown} (${countLines(change.after)} lines).`, `Created ${shown}`, { change: { verb: 'create', ...summary } });
  const what = tool === 'edit_file' ? 'Edited' : 'Wrote';
  return success(`${what} ${shown} (+${diff.added} -${diff.removed}).`, `${what} ${shown}`, { change: { verb: tool === 'edit_file' ? 'edit' : 'write', ...summary } });
}
