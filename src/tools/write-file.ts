/** write_file: create or overwrite a file, previewed as a unified diff. */
import { readFile, stat } from 'node:fs/promises';
import { applyChange } from './apply-change.js';
import { arg } from './args.js';
import { defineTool } from './define-tool.js';
import { accessPath, displayPath, FILE_PATH_ARG, specialFileError } from './path-access.js';
import { failure } from './results.js';
import { decodeText, formatBytes, looksBinary } from './text-file.js';
import { fsPath } from '../io/byte-names.js';

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create a file, or replace a file\'s whole contents. Parent folders inside the project are created. Prefer edit_file for changing part of an existing file.',
  args: {
    path: FILE_PATH_ARG,
    content: arg.string('The complete new contents of the file.'),
  },
  kind: 'write',
  async run({ path: typed, content }, ctx) {
    if (/\/\.?$/.test(typed)) return failure(`write_file: ${typed} ends with "/", which names a folder; give a file name.`, undefined, 'invalid_args');
    const access = await accessPath(ctx, 'write', typed);
    const shown = displayPath(access.resolved);
    if (access.resolved.isDirectory) return failure(`write_file: ${shown} is a directory.`);
    const special = specialFileError('write_file', access.resolved);
    if (special !== undefined) return failure(special);
    let before: string | undefined;
    let replacing: string | undefined;
    if (access.resolved.exists) {
      const size = (await stat(fsPath(access.resolved.realPath))).size;
      const bytes = size <= ctx.config.maxFileSizeBytes ? await readFile(fsPath(access.resolved.realPath)) : undefined;
      if (bytes === undefined || looksBinary(bytes)) {
        replacing = `(replaces ${bytes === undefined ? 'a large' : 'a binary'} file of ${formatBytes(size)}; old contents not shown)`;
      } else {
        before = ctx.files ? await ctx.files.readText(access.resolved.realPath) : decodeText(bytes);
      }
    }
    return applyChange(ctx, { tool: 'write_file', typed, access, before, after: content, replacing });
  },
});
