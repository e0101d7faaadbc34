/** read_offloaded: fetches back a tool result that was moved to disk to save context. */
import { arg, optional } from './args.js';
import { defineTool, stringField } from './define-tool.js';
import { failure, success } from './results.js';

export const readOffloadedTool = defineTool({
  name: 'read_offloaded',
  description:
    'Read back an offloaded tool result by its ref (e.g. "off_0001"), as shown in an [offloaded: ...] stub. It is a snapshot from when the tool ran. For very large ones, offset (first line, 1-based) and limit (lines) select a part.',
  args: {
    ref: arg.string('The ref from the offload stub.', { nonEmpty: true, trim: true }),
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
    if (text === undefined) return failure(`read_offloaded: no such ref "${ref}". Refs look like off_0001 and come from an [offloaded: ...] stub in this session.`, undefined, 'not_found');
    const max = ctx.config.maxToolOutputChars;
    if (offset === undefined && limit === undefined) {
      if (text.length <= max) return success(text, `${ref}: ${text.length} chars`);
      const lines = text.slice(0, max).split('\n');
      lines.pop(); // the last one is likely cut mid-line
      return success(
        `${lines.join('\n')}\n[${ref} is ${text.length} chars; shown: lines 1-${lines.length}. Continue with offset=${lines.length + 1} and a limit]`,
        `${ref}: first ${lines.length} lines`,
      );
    }
    const all = text.split('\n');
    const first = offset ?? 1;
    if (first > all.length) return failure(`read_offloaded: offset ${first} is past the end of ${ref} (${all.length} lines).`, undefined, 'invalid_args');
    const part = all.slice(first - 1, limit === undefined ? undefined : first - 1 + limit);
    let body = part.join('\n');
    if (body.length > max) body = `${body.slice(0, max)}\n[cut at ${max} chars; use a smaller limit]`;
    const last = first + part.length - 1;
    return success(`${body}\n[lines ${first}-${last} of ${all.length}]`, `${ref}: lines ${first}-${last}`);
  },
});
