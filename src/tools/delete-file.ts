/** delete_file: removes one file (or a symlink itself, never what it points at). */
import { unlink } from 'node:fs/promises';
import { defineTool } from './define-tool.js';
import { accessPath, displayPath, FILE_PATH_ARG, gatePath, recheckPath } from './path-access.js';
import { failure, success } from './results.js';
import { fsPath } from '../io/byte-names.js';

export const deleteFileTool = defineTool({
  name: 'delete_file',
  description: 'Delete one file. Folders are not deleted. A symlink is removed itself, not its target.',
  args: { path: FILE_PATH_ARG },
  kind: 'delete',
  async run({ path: typed }, ctx) {
    const access = await accessPath(ctx, 'delete', typed, { followFinal: false });
    const shown = displayPath(access.resolved);
    if (!access.resolved.exists) return failure(`delete_file: ${shown} does not exist.`, undefined, 'not_found');
    if (access.resolved.isDirectory && !access.resolved.isSymlink) {
      return failure(`delete_file: ${shown} is a folder; delete_file removes single files only.`);
    }
    const what = access.resolved.isSymlink ? 'symlink' : 'file';
    const gate = await gatePath(ctx, 'delete_file', 'delete', access, `delete ${what} ${shown}`);
    if (!gate.ok) return gate.result;
    const refusal = await recheckPath(ctx, typed, access.resolved, { followFinal: false });
    if (refusal !== undefined) return failure(`delete_file: ${refusal.replace('nothing was written', 'nothing was deleted')}`);
    await unlink(fsPath(access.resolved.realPath));
    ctx.onFileChanged?.(access.resolved.realPath);
    return success(`Deleted ${shown}.`, `Deleted ${shown}`);
  },
});
