/** list_dir: one folder's entries, dotfiles included, folders marked, symlinks with their target. */
import { readlink } from 'node:fs/promises';
import { escapePath, fsPath, readdirExact } from '../io/byte-names.js';
import path from 'node:path';
import { escapeForDisplay } from '../policy/escape.js';
import { arg, optional } from './args.js';
import { defineTool, stringField } from './define-tool.js';
import { openGated } from './path-access.js';
import { success } from './results.js';

export const MAX_LIST_ENTRIES = 1000;

export const listDirTool = defineTool({
  name: 'list_dir',
  description:
    'List one folder (default: the project root). Folders end with "/", symlinks show "-> target". Dotfiles are included.',
  args: { path: optional(arg.string('Folder to list; defaults to the project root.')) },
  kind: 'read',
  bulk: true,
  title: (input) => stringField(input, 'path') ?? '.',
  subject: (args) => folderOf(args.path),
  async run(args, ctx) {
    const opened = await openGated(ctx, 'list_dir', folderOf(args.path), {
      kind: 'read',
      summary: (shown) => `list ${shown}`,
      want: 'folder',
      wrongType: 'is a file, not a folder; use read_file.',
    });
    if (!opened.ok) return opened.result;
    const { access, shown } = opened;
    const dir = access.resolved.realPath;
    const entries = await readdirExact(dir);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.length === 0) return success(`${shown} is empty.`, 'empty folder');
    const shownEntries = entries.slice(0, MAX_LIST_ENTRIES);
    const lines = await Promise.all(
      shownEntries.map(async (entry) => {
        // Names come from the disk and may carry control characters: escape them for everyone.
        const name = escapeForDisplay(entry.name);
        if (entry.isSymbolicLink()) {
          const target = await readlink(fsPath(path.join(dir, entry.name)), { encoding: 'buffer' }).then(escapePath, () => '?');
          return `${name} -> ${escapeForDisplay(target)}`;
        }
        if (entry.isDirectory()) return `${name}/`;
        return name;
      }),
    );
    const rest = entries.length - shownEntries.length;
    const note = rest > 0 ? `\n[${rest} more entries not shown (${entries.length} in all)]` : '';
    return success(lines.join('\n') + note, `${entries.length} entries`);
  },
});

/** The folder to list: the project root when none (or only spaces) is given. */
function folderOf(typed: string | undefined): string {
  return typed === undefined || typed.trim() === '' ? '.' : typed;
}
