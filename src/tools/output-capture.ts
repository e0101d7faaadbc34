/**
 * What a command printed, kept twice over: whole (up to a large on-disk cap) for the offload
 * snapshot, and clipped to head and tail (max_tool_output_chars) for the context. The two used to
 * be one, so a snapshot of a big output held only what the context could; now only the copy the
 * model sees inline is clipped. Both notes of a cut are worded from the same counts.
 */

/** The most a snapshot keeps of one output: 64 Mi characters, first and last half. */
export const OFFLOAD_MAX_CHARS = 64 * 1024 * 1024;

/** Head and tail of a stream, with the count of chars and lines that went between. */
class HeadTail {
  private head = '';
  private tailParts: string[] = [];
  private tailLength = 0;

  constructor(private readonly max: number) {}

  private get headMax(): number {
    return Math.floor(this.max / 2);
  }

  private get tailMax(): number {
    return this.max - this.headMax;
  }

  push(text: string): void {
    const headRoom = this.headMax - this.head.length;
    if (headRoom > 0) {
      this.head += text.slice(0, headRoom);
      text = text.slice(headRoom);
    }
    if (text === '') return;
    this.tailParts.push(text);
    this.tailLength += text.length;
    // Trim lazily so a flood of small chunks is not quadratic.
    if (this.tailLength > this.tailMax * 2) {
      const joined = this.tailParts.join('');
      const kept = joined.slice(joined.length - this.tailMax);
      this.tailParts = [kept];
      this.tailLength = kept.length;
    }
  }

  /** The kept text; `note(cutChars)` makes the line that stands where the middle was. */
  text(total: number, note: (cutChars: number) => string): string {
    const tail = this.tailParts.join('');
    if (total <= this.max) return this.head + tail;
    const keptTail = tail.slice(Math.max(0, tail.length - this.tailMax));
    const cutChars = total - this.head.length - keptTail.length;
    return `${this.head}\n${note(cutChars)}\n${keptTail}`;
  }

  newlinesKept(total: number): number {
    if (total <= this.max) return -1;
    const tail = this.tailParts.join('');
    return countNewlines(this.head) + countNewlines(tail.slice(Math.max(0, tail.length - this.tailMax)));
  }
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export class OutputCapture {
  private readonly context: HeadTail;
  private readonly disk: HeadTail;
  private total = 0;
  private totalLines = 0;
  private endsWithNewline = true;

  constructor(
    private readonly maxChars: number,
    private readonly diskChars: number = Math.max(OFFLOAD_MAX_CHARS, maxChars),
  ) {
    this.context = new HeadTail(maxChars);
    this.disk = new HeadTail(this.diskChars);
  }

  push(text: string): void {
    if (text === '') return;
    this.total += text.length;
    this.totalLines += countNewlines(text);
    this.endsWithNewline = text.endsWith('\n');
    this.context.push(text);
    this.disk.push(text);
  }

  get chars(): number {
    return this.total;
  }

  /** Lines printed, a last line without its newline included: the figure every view shows. */
  get lines(): number {
    return this.total === 0 ? 0 : this.totalLines + (this.endsWithNewline ? 0 : 1);
  }

  /** True when the context copy is not the whole output. */
  get clipped(): boolean {
    return this.total > this.maxChars;
  }

  /** The copy for the context: head and tail, the middle replaced by a note of what went. */
  text(): string {
    return this.context.text(this.total, (chars) => this.cutNote(chars, this.context, `max_tool_output_chars = ${this.maxChars}`));
  }

  /** The copy for the offload snapshot: all of it, unless past the on-disk cap. */
  whole(): string {
    return this.disk.text(this.total, (chars) => this.cutNote(chars, this.disk, `a snapshot keeps at most ${this.diskChars} chars`));
  }

  /** Said where a cut is, and (for the stub) of the snapshot: how much of how much went. */
  wholeCut(): string | undefined {
    if (this.total <= this.diskChars) return undefined;
    return `the command printed ${this.total} chars (${this.lines} lines); the snapshot keeps the first and last ${Math.floor(this.diskChars / 2)} chars`;
  }

  private cutNote(chars: number, copy: HeadTail, why: string): string {
    const lines = this.totalLines - copy.newlinesKept(this.total);
    return `[… ${chars} chars cut from the middle of ${this.total} (${lines} of ${this.lines} lines; ${why}) …]`;
  }
}
