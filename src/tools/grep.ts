/** grep: a regex over file contents; ripgrep when present, the in-process engine otherwise. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { escapeFileName } from '../policy/escape.js';
import { asObject, optionalBoolean, optionalString, requireString } from './args.js';
import { grepInProcess, grepWithRipgrep, ripgrepPath, type GrepHit, type GrepQuery } from './grep-engines.js';
import { failure, guarded, success } from './results.js';
import { cappedNote, isScope, openSearch } from './search-scope.js';
import { filterSearchHits } from './search-filter.js';
import type { ToolDefinition } from './types.js';

export const MAX_GREP_LINES = 250;

export function formatHits(hits: GrepHit[], prefix: string): string[] {
  const sorted = [...hits].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  // The name is escaped (it comes from the disk); the line is the file's text, given as read_file gives it.
  return sorted.map((h) => `${escapeFileName(prefix + h.file)}:${h.line}:${h.text}`);
}

/**
 * A file with several hard links may be one outside the project under another name, so its
 * contents are not handed over silently (ripgrep cannot be told to skip them; they are dropped here).
 */
async function withoutHardLinked(hits: GrepHit[], base: string): Promise<{ hits: GrepHit[]; linked: number }> {
  const linked = new Set<string>();
  await Promise.all(
    [...new Set(hits.map((h) => h.file))].map(async (file) => {
      const info = await stat(path.join(base, file)).catch(() => undefined);
      if (info !== undefined && info.isFile() && info.nlink > 1) linked.add(file);
    }),
  );
  return linked.size === 0 ? { hits, linked: 0 } : { hits: hits.filter((h) => !linked.has(h.file)), linked: linked.size };
}

export const grepTool: ToolDefinition = {
  name: 'grep',
  description:
    'Search file contents with a regular expression. Prints path:line:text for each matching line. path narrows to a folder or file; glob filters file names (e.g. "*.py"). Respects .gitignore; skips binaries, .git, node_modules and other vendored folders.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Regular expression.' },
      path: { type: 'string', description: 'Folder or file to search; defaults to the project root.' },
      glob: { type: 'string', description: 'Only files matching this glob, e.g. "*.ts" or "src/**/*.go".' },
      ignore_case: { type: 'boolean', description: 'Case-insensitive match.' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  kind: 'read',
  bulk: true,
  run(input, ctx) {
    let typed = '';
    return guarded('grep', () => typed, async () => {
      const args = asObject(input);
      const pattern = requireString(args, 'pattern', { nonEmpty: true });
      typed = optionalString(args, 'path') ?? '.';
      const glob = optionalString(args, 'glob');
      const ignoreCase = optionalBoolean(args, 'ignore_case') ?? false;
      const scope = await openSearch(ctx, 'grep', typed, `grep ${pattern}`);
      if (!isScope(scope)) return scope;
      const query: GrepQuery = {
        root: scope.access.resolved.root,
        base: scope.base,
        baseIsDir: scope.access.resolved.isDirectory,
        pattern,
        glob: glob === '' ? undefined : glob,
        ignoreCase,
        excluded: scope.excluded,
        signal: ctx.signal,
      };
      const rg = await ripgrepPath();
      const outcome = rg !== undefined ? await grepWithRipgrep(rg, query) : await grepInProcess(query);
      if (outcome.error !== undefined) return failure(`grep: ${outcome.error}`);
      const unlinked = query.baseIsDir ? await withoutHardLinked(outcome.hits, scope.base) : { hits: outcome.hits, linked: 0 };
      const { linked } = unlinked;
      const filtered = filterSearchHits(ctx, scope.access.resolved, unlinked.hits);
      const hits = filtered.hits;
      const linkedNote = (linked > 0 ? `\n[${linked} hard-linked files left out: each may be a file outside the project; read_file asks before reading one]` : '') + filtered.note;
      if (hits.length === 0) return success(`No matches for ${pattern} in ${scope.prefix || '.'}${linkedNote}`, 'no matches');
      const lines = formatHits(hits, scope.prefix);
      const shown = lines.slice(0, MAX_GREP_LINES);
      const total = hits.length;
      let note = cappedNote(shown.length, total, 'matching lines', 'narrow with path or glob, or a more specific pattern') + linkedNote;
      if (outcome.truncated) note += `\n[the search stopped after ${total} matches; there are more]`;
      const files = new Set(hits.map((h) => h.file)).size;
      return success(shown.join('\n') + note, `${total}${outcome.truncated ? '+' : ''} matches in ${files} files`);
    });
  },
};
