/** write_file: create or overwrite a file, previewed as a unified diff. */
import { readFile, stat } from 'node:fs/promises';
import { applyChange } from './apply-change.js';
import { asObject, requireString } from './args.js';
import { accessPath, displayPath, specialFileError } from './path-access.js';
import { failure, guarded } from './results.js';
import { decodeText, formatBytes, looksBinary } from './text-file.js';
import type { ToolDefinition } from './types.js';

export const writeFileTool: ToolDefinition = {
  name: 'write_file',
  description:
    'Create a file, or replace a file\'s whole contents. Parent folders inside the project are created. Prefer edit_file for changing part of an existing file.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the project root or absolute.' },
      content: { type: 'string', description: 'The complete new contents of the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  kind: 'write',
  bulk: false,
  run(input, ctx) {
    let typed = '';
    return guarded('write_file', () => typed, async () => {
      const args = asObject(input);
      typed = requireString(args, 'path', { nonEmpty: true });
      const content = requireString(args, 'content');
      if (/\/\.?$/.test(typed)) return failure(`write_file: ${typed} ends with "/", which names a folder; give a file name.`);
      const access = await accessPath(ctx, 'write', typed);
      const shown = displayPath(access.resolved);
      if (access.resolved.isDirectory) return failure(`write_file: ${shown} is a directory.`);
      const special = specialFileError('write_file', access.resolved);
      if (special !== undefined) return failure(special);
      let before: string | undefined;
      let replacing: string | undefined;
      if (access.resolved.exists) {
        const size = (await stat(access.resolved.realPath)).size;
        const bytes = size <= ctx.config.maxFileSizeBytes ? await readFile(access.resolved.realPath) : undefined;
        if (bytes === undefined || looksBinary(bytes)) {
          replacing = `(replaces ${bytes === undefined ? 'a large' : 'a binary'} file of ${formatBytes(size)}; old contents not shown)`;
        } else {
          before = ctx.files ? await ctx.files.readText(access.resolved.realPath) : decodeText(bytes);
        }
      }
      return applyChange(ctx, { tool: 'write_file', typed, access, before, after: content, replacing });
    });
  },
};
