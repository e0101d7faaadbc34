/** read_file: numbered lines, a window by offset/limit, plain refusals for huge and binary files. */
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { asObject, optionalInteger, requireString } from './args.js';
import { accessPath, displayPath, gatePath, specialFileError } from './path-access.js';
import { failure, guarded, success } from './results.js';
import { decodeText, formatBytes, looksBinary } from './text-file.js';
import type { ToolDefinition, ToolResult } from './types.js';

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

/** For files over the size limit: only the window is kept in memory. */
async function streamWindow(file: string, offset: number, limit: number): Promise<{ lines: string[]; total: number }> {
  const lines: string[] = [];
  let total = 0;
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) {
    total++;
    if (total >= offset && lines.length < limit) lines.push(line);
  }
  return { lines, total };
}

async function headBytes(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function windowResult(shown: string, lines: string[], first: number, total: number, partial: boolean): ToolResult {
  if (total === 0) return success(`${shown} is empty (0 lines).`, 'empty file');
  if (lines.length === 0) return failure(`read_file: offset ${first} is past the end of ${shown}, which has ${total} lines.`);
  const last = first + lines.length - 1;
  let body = numbered(lines, first);
  if (partial || last < total) {
    body += `\n[lines ${first}-${last} of ${total}${last < total ? `; continue with offset=${last + 1}` : ''}]`;
  }
  return success(body, partial || last < total || first > 1 ? `lines ${first}-${last} of ${total}` : `${total} lines`);
}

export const readFileTool: ToolDefinition = {
  name: 'read_file',
  description:
    'Read a text file. Returns numbered lines (number, tab, text). Use offset (first line, 1-based) and limit (number of lines) to read part of a large file.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the project root or absolute.' },
      offset: { type: 'integer', minimum: 1, description: 'First line to return, 1-based.' },
      limit: { type: 'integer', minimum: 1, description: 'Number of lines to return.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  kind: 'read',
  bulk: true,
  run(input, ctx) {
    let typed = '';
    return guarded('read_file', () => typed, async () => {
      const args = asObject(input);
      typed = requireString(args, 'path', { nonEmpty: true });
      const offset = optionalInteger(args, 'offset', 1);
      const limit = optionalInteger(args, 'limit', 1);
      const access = await accessPath(ctx, 'read', typed);
      const shown = displayPath(access.resolved);
      const gate = await gatePath(ctx, 'read_file', 'read', access, `read ${shown}`);
      if (!gate.ok) return gate.result;
      if (!access.resolved.exists) return failure(`read_file: ${shown} does not exist. Use glob or list_dir to find the right path.`);
      if (access.resolved.isDirectory) return failure(`read_file: ${shown} is a directory; use list_dir to see what is in it.`);
      const special = specialFileError('read_file', access.resolved);
      if (special !== undefined) return failure(special);
      const file = access.resolved.realPath;
      const size = (await stat(file)).size;
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
        const { lines, total } = await streamWindow(file, first, limit ?? 2000);
        return windowResult(shown, lines, first, total, true);
      }
      const all = splitLines(decodeText(await readFile(file)));
      const lines = all.slice(first - 1, limit === undefined ? undefined : first - 1 + limit);
      return windowResult(shown, lines, first, all.length, offset !== undefined || limit !== undefined);
    });
  },
};
