/**
 * edit_file: replace one exact occurrence of old_string (or every one with replace_all), keeping
 * the file's line endings and its trailing newline as they were.
 */
import { readFile, stat } from 'node:fs/promises';
import { applyChange } from './apply-change.js';
import { arg, optional } from './args.js';
import { defineTool } from './define-tool.js';
import { findAll, lineOf, nearestLines } from './edit-match.js';
import { decideForPath } from '../policy/gate.js';
import { isGitConfig, redactGitConfig } from '../policy/git-config-redact.js';
import { accessPath, displayPath, FILE_PATH_ARG, gatePath, specialFileError } from './path-access.js';
import { failure } from './results.js';
import { decodeText, detectEol, formatBytes, looksBinary } from './text-file.js';
import { fsPath } from '../io/byte-names.js';

function keepTrailingNewline(before: string, after: string, eol: string): string {
  if (after === '') return after;
  const had = before.endsWith('\n');
  const has = after.endsWith('\n');
  if (had && !has) return after + eol;
  if (!had && has) return after.endsWith('\r\n') ? after.slice(0, -2) : after.slice(0, -1);
  return after;
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace an exact piece of text in a file. old_string must match exactly once (copy it from read_file output, without the line numbers), unless replace_all is true. Include enough surrounding lines to make it unique.',
  args: {
    path: FILE_PATH_ARG,
    old_string: arg.string('The exact text to replace.'),
    new_string: arg.string('The text to put in its place.'),
    replace_all: optional(arg.boolean('Replace every occurrence instead of requiring exactly one.')),
  },
  kind: 'write',
  async run(args, ctx) {
    const typed = args.path;
    let oldString = args.old_string;
    let newString = args.new_string;
    const replaceAll = args.replace_all ?? false;
    if (oldString === '') return failure('edit_file: old_string is empty. To create a file or replace all of it, use write_file.', undefined, 'invalid_args');
    if (oldString === newString) return failure('edit_file: old_string and new_string are identical; there is nothing to change.', undefined, 'invalid_args');
    const access = await accessPath(ctx, 'write', typed);
    const shown = displayPath(access.resolved);
    // Match counts and the nearest-lines hint reveal the contents: the file must be readable too,
    // or edit_file becomes a silent way to read a file the read policy guards.
    if (access.decision.level === 'deny' || ctx.readOnly) {
      // Refused whatever the read answer would be: deny now rather than ask to read first.
      const gate = await gatePath(ctx, 'edit_file', 'write', access, `edit ${shown}`);
      if (!gate.ok) return gate.result;
    }
    const readDecision = decideForPath(ctx, 'read', access.resolved);
    if (readDecision.level !== 'allow') {
      const gate = await gatePath(ctx, 'edit_file', 'read', { resolved: access.resolved, decision: readDecision }, `read ${shown} (to edit it)`);
      if (!gate.ok) return gate.result;
    }
    if (!access.resolved.exists) return failure(`edit_file: ${shown} does not exist. Use write_file to create it.`, undefined, 'not_found');
    if (access.resolved.isDirectory) return failure(`edit_file: ${shown} is a directory.`);
    const special = specialFileError('edit_file', access.resolved);
    if (special !== undefined) return failure(special);
    const size = (await stat(fsPath(access.resolved.realPath))).size;
    if (size > ctx.config.maxFileSizeBytes) {
      return failure(`edit_file: ${shown} is ${formatBytes(size)}, over the ${formatBytes(ctx.config.maxFileSizeBytes)} limit (max_file_size_bytes).`);
    }
    const bytes = await readFile(fsPath(access.resolved.realPath));
    if (looksBinary(bytes)) return failure(`edit_file: ${shown} is a binary file; it cannot be edited as text.`);
    const onDisk = decodeText(bytes);
    if (!Buffer.from(onDisk, 'utf8').equals(bytes)) {
      return failure(`edit_file: ${shown} is not valid UTF-8; editing it as text would change bytes you did not ask to change.`);
    }
    // An editor's buffer may hold changes not yet saved: those are what the edit applies to.
    const before = ctx.files ? await ctx.files.readText(access.resolved.realPath) : onDisk;
    const eol = detectEol(before);
    if (eol === '\r\n') {
      // The model writes LF; the file keeps CRLF.
      const toCrlf = (s: string) => s.replace(/\r?\n/g, '\r\n');
      if (!before.includes(oldString)) oldString = toCrlf(oldString);
      newString = toCrlf(newString);
    }
    const hits = findAll(before, oldString);
    if (hits.length === 0) {
      const near = nearestLines(before, oldString.replace(/\r\n/g, '\n'));
      // The hint quotes the file: a git config's tokens stay redacted, as read_file shows them.
      const hint = isGitConfig(access.resolved.realPath) ? redactGitConfig(near).text : near;
      return failure(`edit_file: old_string was not found in ${shown}.\n${hint}`, `no match in ${shown}`, 'not_found');
    }
    if (hits.length > 1 && !replaceAll) {
      const lines = hits.map((i) => lineOf(before, i));
      return failure(
        `edit_file: old_string matches ${hits.length} times in ${shown}, at lines ${lines.join(', ')}. ` +
          'Add surrounding lines to make it unique, or set replace_all to change every one.',
        `${hits.length} matches in ${shown}`,
        'invalid_args',
      );
    }
    const replaced = replaceAll
      ? before.split(oldString).join(newString)
      : before.slice(0, hits[0]) + newString + before.slice((hits[0] as number) + oldString.length);
    const after = keepTrailingNewline(before, replaced, eol);
    if (after === before) {
      return failure(`edit_file: this edit leaves ${shown} unchanged (edit_file keeps the final newline as it was); nothing was written. To add or remove only the final newline, use write_file.`);
    }
    return applyChange(ctx, { tool: 'edit_file', typed, access, before, after });
  },
});
