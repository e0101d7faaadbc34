/** list_dir: one folder's entries, dotfiles included, folders marked, symlinks with their target. */
import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { escapeForDisplay } from '../policy/escape.js';
import { asObject, optionalString } from './args.js';
import { accessPath, displayPath, gatePath } from './path-access.js';
import { failure, guarded, success } from './results.js';
import type { ToolDefinition } from './types.js';

export const MAX_LIST_ENTRIES = 1000;

export const listDirTool: ToolDefinition = {
  name: 'list_dir',
  description:
    'List one folder (default: the project root). Folders end with "/", symlinks show "-> target". Dotfiles are included.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Folder to list; defaults to the project root.' } },
    additionalProperties: false,
  },
  kind: 'read',
  bulk: true,
  run(input, ctx) {
    let typed = '.';
    return guarded('list_dir', () => typed, async () => {
      const args = asObject(input);
      typed = optionalString(args, 'path') ?? '.';
      if (typed.trim() === '') typed = '.';
      const access = await accessPath(ctx, 'read', typed);
      const shown = displayPath(access.resolved);
      const gate = await gatePath(ctx, 'list_dir', 'read', access, `list ${shown}`);
      if (!gate.ok) return gate.result;
      if (!access.resolved.exists) return failure(`list_dir: ${shown} does not exist.`);
      if (!access.resolved.isDirectory) return failure(`list_dir: ${shown} is a file, not a folder; use read_file.`);
      const dir = access.resolved.realPath;
      const entries = await readdir(dir, { withFileTypes: true });
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (entries.length === 0) return success(`${shown} is empty.`, 'empty folder');
      const shownEntries = entries.slice(0, MAX_LIST_ENTRIES);
      const lines = await Promise.all(
        shownEntries.map(async (entry) => {
          // Names come from the disk and may carry control characters: escape them for everyone.
          const name = escapeForDisplay(entry.name);
          if (entry.isSymbolicLink()) {
            const target = await readlink(path.join(dir, entry.name)).catch(() => '?');
            return `${name} -> ${escapeForDisplay(target)}`;
          }
          if (entry.isDirectory()) return `${name}/`;
          return name;
        }),
      );
      const rest = entries.length - shownEntries.length;
      const note = rest > 0 ? `\n[${rest} more entries not shown (${entries.length} in all)]` : '';
      return success(lines.join('\n') + note, `${entries.length} entries`);
    });
  },
};
