/**
 * What replaces an offloaded result in the conversation, and the per-session marker that tells the
 * text lindwyrm writes apart from text a tool returned.
 */
import { estimateText } from './estimate-tokens.js';

/** The tools that return bulk data; only these are offloaded on arrival. */
export const BULK_TOOLS: ReadonlySet<string> = new Set(['read_file', 'bash', 'grep', 'glob', 'list_dir']);

/** How many lines of the result the stub keeps, so the model sees what it got at a glance. */
export const STUB_PREVIEW_LINES = 8;
const PREVIEW_LINE_CHARS = 160;
const LABEL_CHARS = 60;

/**
 * Tool output must never carry the marker: a file the model wrote earlier could otherwise pose as
 * an offload stub or a summary. Every tool result goes through this before it enters history.
 */
export function neutralizeMarker(content: string, marker: string): string {
  if (!marker || !content.includes(marker)) return content;
  return content.split(marker).join('[marker removed]');
}

/** The argument that says what a call was about: the path, the command, the pattern. */
export function mainArgument(input: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!input) return undefined;
  for (const key of ['path', 'command', 'pattern', 'ref', 'name']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}

function oneLine(text: string, max: number): string {
  // Control characters would let a label repaint the stub; the model needs none of them.
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** '42.3 KB', '128 KB' (a whole number drops its '.0'), '1.5 MB'. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${value.toFixed(1).replace(/\.0$/, '')} ${unit}`;
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  // A trailing newline ends the last line rather than starting another.
  return text.endsWith('\n') ? n - 1 : n;
}

/** The header every stub starts with; the marker makes it one lindwyrm wrote. */
export function stubHeaderPrefix(marker: string): string {
  return `[offloaded ${marker}:`;
}

export function isStub(content: string, marker: string): boolean {
  return content.startsWith(stubHeaderPrefix(marker));
}

/** How the model reads a snapshot back: page by page, each page naming the next (read-offloaded.ts). */
export function pagingNote(ref: string): string {
  return `read_offloaded("${ref}") returns it a page at a time; each page names the lines it holds and the offset of the next.`;
}

export function buildStub(opts: {
  tool: string;
  label?: string;
  content: string;
  ref: string;
  marker: string;
  /** The on-disk cap cut the snapshot itself (OutputCapture.wholeCut). */
  cut?: string;
}): string {
  const { tool, content, ref, marker } = opts;
  const lines = countLines(content);
  const bytes = Buffer.byteLength(content, 'utf8');
  const what = opts.label ? `${tool} ${oneLine(opts.label, LABEL_CHARS)}` : tool;
  const header = `${stubHeaderPrefix(marker)} ${what} -- ${lines} line${lines === 1 ? '' : 's'}, ${formatSize(bytes)}, ref ${ref}]`;
  const preview = content
    .split('\n', STUB_PREVIEW_LINES)
    .map((line) => (line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}…` : line));
  const more = lines > preview.length ? [`... (${lines - preview.length} more lines)`] : [];
  const cut = opts.cut ? [`Cut on disk: ${opts.cut}.`] : [];
  const note =
    tool === 'read_file'
      ? `A snapshot taken when the tool ran; the file may have changed since. ${pagingNote(ref)} read_file gives the current contents.`
      : `A snapshot taken when the tool ran, all ${lines} lines. ${pagingNote(ref)}`;
  return [header, ...preview, ...more, ...cut, note].join('\n');
}

/** Appended to a clipped result that stays inline: where the whole of it is. */
export function wholeKeptNote(whole: string, ref: string, cut?: string): string {
  const lines = countLines(whole);
  return `[the whole output (${lines} lines, ${formatSize(Buffer.byteLength(whole, 'utf8'))}${cut ? `; cut on disk: ${cut}` : ''}) is kept as ref ${ref}. ${pagingNote(ref)}]`;
}

/** An offload only pays when the stub is clearly smaller than what it replaces. */
export function stubSaves(content: string, stub: string): boolean {
  return estimateText(stub) < estimateText(content);
}
