/** read_file: numbered lines, a window by offset/limit, plain refusals for huge and binary files. */
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { isGitConfig, redactGitConfig } from '../policy/git-config-redact.js';
import { arg, optional } from './args.js';
import { defineTool } from './define-tool.js';
import { FILE_PATH_ARG, openGated } from './path-access.js';
import { failure, success } from './results.js';
import { decodeText, formatBytes, looksBinary } from './text-file.js';
import type { ToolResult } from './types.js';
import { fsPath } from '../io/byte-names.js';

const MAX_LINE_CHARS = 2000;

function numbered(lines: readonly string[], first: number): string {
  const width = String(first + lines.length - 1).length;
  return lines
    .map((line, i) => {
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]` : line;
      return `${String(first + i).padStart(width)}\t${shown}`;
    })
    .join('\n');
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * For files over the size limit: only the window is kept in memory, and reading stops right after
 * it (counting the rest of a multi-gigabyte log would take minutes), or at an interrupt.
 * `total` is undefined when the file goes on past the window.
 */
async function streamWindow(file: string, offset: number, limit: number, signal: AbortSignal): Promise<{ lines: string[]; total: number | undefined }> {
  const lines: string[] = [];
  let seen = 0;
  const input = createReadStream(fsPath(file), { encoding: 'utf8' });
  const rl = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      if (signal.aborted) throw new Error('interrupted');
      if (lines.length >= limit) return { lines, total: undefined };
      seen++;
      if (seen >= offset) lines.push(line);
    }
  } finally {
    rl.close();
    input.destroy();
  }
  return { lines, total: seen };
}

async function headBytes(file: string): Promise<Uint8Array> {
  const handle = await open(fsPath(file), 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The exact call for the page after `last`: the path as the model gave it, the same limit. */
function nextCall(typed: string, last: number, limit: number | undefined): string {
  return `read_file(path=${JSON.stringify(typed)}, offset=${last + 1}${limit === undefined ? '' : `, limit=${limit}`})`;
}

function windowResult(shown: string, lines: string[], first: number, total: number | undefined, partial: boolean, next: (last: number) => string): ToolResult {
  if (total === 0) return success(`${shown} is empty (0 lines).`, 'empty file');
  if (lines.length === 0) return failure(`read_file: offset ${first} is past the end of ${shown}, which has ${total ?? 'fewer'} lines.`, undefined, 'invalid_args');
  const last = first + lines.length - 1;
  const more = total === undefined || last < total;
  const of = total === undefined ? 'of more' : `of ${total}`;
  let body = numbered(lines, first);
  if (partial || more) {
    body += `\n[lines ${first}-${last} ${of}${more ? `; next page: ${next(last)}` : '; that is the end'}]`;
  }
  return success(body, partial || more || first > 1 ? `lines ${first}-${last} ${of}` : `${total} lines`);
}

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file. Returns numbered lines (number, tab, text). Use offset (first line, 1-based) and limit (number of lines) to read part of a large file.',
  args: {
    path: FILE_PATH_ARG,
    offset: optional(arg.integer('First line to return, 1-based.', { min: 1 })),
    limit: optional(arg.integer('Number of lines to return.', { min: 1 })),
  },
  kind: 'read',
  bulk: true,
  async run({ path: typed, offset, limit }, ctx) {
    const opened = await openGated(ctx, 'read_file', typed, {
      kind: 'read',
      summary: (shown) => `read ${shown}`,
      want: 'file',
      missingHint: 'Use glob or list_dir to find the right path.',
      wrongType: 'is a directory; use list_dir to see what is in it.',
    });
    if (!opened.ok) return opened.result;
    const { access, shown } = opened;
    const file = access.resolved.realPath;
    const size = (await stat(fsPath(file))).size;
    const max = ctx.config.maxFileSizeBytes;
    if (looksBinary(await headBytes(file))) {
      return failure(`read_file: ${shown} is a binary file (${formatBytes(size)}); its contents are not shown.`, `binary file ${shown}`);
    }
    const first = offset ?? 1;
    if (size > max) {
      if (offset === undefined && limit === undefined) {
        return failure(
          `read_file: ${shown} is ${formatBytes(size)}, over the ${formatBytes(max)} limit (max_file_size_bytes). ` +
            'Read part of it with offset and limit, or search it with grep.',
          `too large: ${shown}`,
        );
      }
      const window = limit ?? 2000;
      const { lines, total } = await streamWindow(file, first, window, ctx.signal);
      return windowResult(shown, isGitConfig(file) ? lines.map((l) => redactGitConfig(l).text) : lines, first, total, true, (last) => nextCall(typed, last, window));
    }
    const text = ctx.files ? await ctx.files.readText(file) : decodeText(await readFile(fsPath(file)));
    // A remote URL's token or an extraHeader in .git/config never reaches the model.
    const all = splitLines(isGitConfig(file) ? redactGitConfig(text).text : text);
    const lines = all.slice(first - 1, limit === undefined ? undefined : first - 1 + limit);
    return windowResult(shown, lines, first, all.length, offset !== undefined || limit !== undefined, (last) => nextCall(typed, last, limit));
  },
});
