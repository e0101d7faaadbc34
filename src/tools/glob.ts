/** glob: file names matching a pattern, .gitignore and vendored folders respected. */
import path from 'node:path';
import picomatch from 'picomatch';
import { escapeFileName } from '../policy/escape.js';
import { arg, optional } from './args.js';
import { defineTool } from './define-tool.js';
import { success, failure } from './results.js';
import { cappedNote, isScope, openSearch, SEARCH_TOOL } from './search-scope.js';
import { walkFiles } from './walk-files.js';

export const MAX_GLOB_RESULTS = 500;

/**
 * Compiled and packed files nobody reads as source. Judged by name (reading every file would cost
 * more than the walk), and listed anyway when the pattern names the extension. Images are not
 * here: view_image needs to find them.
 */
const BINARY_EXTENSIONS = new Set([
  '.o', '.a', '.so', '.dylib', '.dll', '.exe', '.obj', '.lib', '.class', '.jar', '.pyc', '.pyo', '.wasm',
  '.zip', '.gz', '.tgz', '.bz2', '.xz', '.zst', '.7z', '.rar', '.tar', '.iso', '.dmg', '.bin', '.dat',
  '.woff', '.woff2', '.ttf', '.otf', '.eot', '.mp3', '.mp4', '.mov', '.avi', '.mkv', '.wav', '.flac',
  '.sqlite', '.db', '.node', '.pdb', '.idx', '.pack',
]);

export const globTool = defineTool({
  name: 'glob',
  description:
    'Find files whose path matches a glob pattern (e.g. "**/*.ts", "src/**/test_*.py"), relative to path (default: the project root). Use **/ to look in subfolders. Respects .gitignore; skips .git, node_modules and other vendored folders.',
  args: {
    pattern: arg.string('Glob pattern, matched against paths relative to path.', { nonEmpty: true }),
    path: optional(arg.string('Folder to search in; defaults to the project root.')),
  },
  ...SEARCH_TOOL,
  async run(args, ctx) {
    let pattern = args.pattern;
    const typedPath = args.path;
    let typed = typedPath ?? '.';
    // Patterns match paths below `path`, so "/etc/*.conf" or "../x/*.ts" would never match:
    // their fixed leading folders become the path instead.
    if (typedPath === undefined && /^(\/|~\/|\.\.(\/|$))/.test(pattern)) {
      const { base, glob } = picomatch.scan(pattern);
      typed = glob === '' ? path.dirname(base) : base;
      pattern = glob === '' ? path.basename(base) : glob;
    }
    const scope = await openSearch(ctx, 'glob', typed, `glob ${pattern}`);
    if (!isScope(scope)) return scope;
    if (!scope.access.resolved.isDirectory) return failure(`glob: ${typed} is not a folder.`);
    const matches = picomatch(pattern.replace(/^\.\//, ''), { dot: true });
    const found: string[] = [];
    const named = pattern.toLowerCase();
    let binaries = 0;
    await walkFiles({
      root: scope.access.resolved.root,
      base: scope.base,
      excluded: scope.excluded,
      signal: ctx.signal,
      onFile: (_abs, rel) => {
        if (!matches(rel)) return;
        const ext = path.extname(rel).toLowerCase();
        if (BINARY_EXTENSIONS.has(ext) && !named.includes(ext)) binaries++;
        else found.push(rel);
      },
    });
    const binaryNote = binaries > 0 ? `\n[${binaries} binary files left out; name the extension in the pattern to list them]` : '';
    if (found.length === 0) return success(`No files match ${pattern} in ${scope.prefix || '.'}${binaryNote}`, 'no matches');
    found.sort();
    // Names come from the disk (a cloned repo is untrusted): no raw escape sequence or bidi
    // override reaches the model, the session file or a terminal that prints either.
    const shown = found.slice(0, MAX_GLOB_RESULTS).map((rel) => escapeFileName(scope.prefix + rel));
    const note = cappedNote(shown.length, found.length, 'files', 'narrow the pattern or path');
    return success(shown.join('\n') + note + binaryNote, `${found.length} files`);
  },
});
