/** read_offloaded: fetches back a tool result that was moved to disk to save context. */
import { arg, optional } from './args.js';
import { defineTool, stringField } from './define-tool.js';
import { failure, success } from './results.js';
import { pageOfLines } from './page-lines.js';

export const readOffloadedTool = defineTool({
  name: 'read_offloaded',
  description:
    'Read back an offloaded tool result by its ref (e.g. "off_0001"), as shown in an [offloaded: ...] stub, or an archived turn by its ref (e.g. "arc_0001", from a summary or recall). It is a snapshot from when the tool ran. A large one comes a page at a time: each page ends by naming the lines it holds and the exact call for the next page. offset (first line, 1-based) and limit (lines) select a part.',
  args: {
    ref: arg.string('The ref from the offload stub, a summary or recall.', { nonEmpty: true, trim: true }),
    offset: optional(arg.integer('First line, 1-based.', { min: 1 })),
    limit: optional(arg.integer('Number of lines.', { min: 1 })),
  },
  kind: 'none',
  // Never offloaded itself: that would hand the model a stub pointing at a stub.
  bulk: false,
  title: (input) => stringField(input, 'ref'),
  subject: () => 'ref',
  async run({ ref, offset, limit }, ctx) {
    const text = await ctx.offload.read(ref);
    if (text === undefined) return failure(`read_offloaded: no such ref "${ref}". Refs look like off_0001 (from an [offloaded: ...] stub) or arc_0001 (an archived turn, from a summary or recall) and belong to this session.`, undefined, 'not_found');
    const max = ctx.config.maxToolOutputChars;
    // The whole of a small snapshot, as it was: nothing to page.
    if (offset === undefined && limit === undefined && text.length <= max) return success(text, `${ref}: ${text.length} chars`);
    const lines = splitLines(text);
    const first = offset ?? 1;
    if (first > lines.length) return failure(`read_offloaded: offset ${first} is past the end of ${ref} (${lines.length} lines).`, undefined, 'invalid_args');
    const page = pageOfLines(lines, first, limit, max);
    const next = page.last < lines.length ? `; next page: read_offloaded(ref="${ref}", offset=${page.last + 1}${limit === undefined ? '' : `, limit=${limit}`})` : '; that is the end';
    const why = page.cutByChars ? ` (a page holds at most ${max} chars, max_tool_output_chars)` : '';
    return success(`${page.body}\n[${ref}: lines ${first}-${page.last} of ${lines.length}${why}${next}]`, `${ref}: lines ${first}-${page.last} of ${lines.length}`);
  },
});

/** Lines as the stub counts them: a trailing newline ends the last line rather than starting one. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}
