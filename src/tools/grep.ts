/** grep: a regex over file contents; ripgrep when present, the in-process engine otherwise. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { escapeFileName } from '../policy/escape.js';
import { arg, optional } from './args.js';
import { defineTool } from './define-tool.js';
import { grepInProcess, grepWithRipgrep, ripgrepPath, type GrepHit, type GrepQuery } from './grep-engines.js';
import { failure, success } from './results.js';
import { cappedNote, isScope, openSearch, SEARCH_TOOL } from './search-scope.js';
import { filterSearchHits } from './search-filter.js';
import { absent } from '../diagnostics/ignore-error.js';
import { fsPath, hasEscapedName } from '../io/byte-names.js';

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
      const info = await stat(fsPath(path.join(base, file))).catch(absent);
      if (info !== undefined && info.isFile() && info.nlink > 1) linked.add(file);
    }),
  );
  return linked.size === 0 ? { hits, linked: 0 } : { hits: hits.filter((h) => !linked.has(h.file)), linked: linked.size };
}

export const grepTool = defineTool({
  name: 'grep',
  description:
    'Search file contents with a regular expression. Prints path:line:text for each matching line. path narrows to a folder or file; glob filters file names (e.g. "*.py"). Respects .gitignore; skips binaries, .git, node_modules and other vendored folders.',
  args: {
    pattern: arg.string('Regular expression.', { nonEmpty: true }),
    path: optional(arg.string('Folder or file to search; defaults to the project root.')),
    glob: optional(arg.string('Only files matching this glob, e.g. "*.ts" or "src/**/*.go".')),
    ignore_case: optional(arg.boolean('Case-insensitive match.')),
  },
  ...SEARCH_TOOL,
  async run(args, ctx) {
    const pattern = args.pattern;
    const typed = args.path ?? '.';
    const glob = args.glob;
    const ignoreCase = args.ignore_case ?? false;
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
    // ripgrep is given the folder as text: one whose own name is not UTF-8 is searched in process.
    const rg = hasEscapedName(query.base) ? undefined : await ripgrepPath();
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
  },
});
