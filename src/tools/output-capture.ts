/** Keeps the head and the tail of a long output, with an honest note of what was cut between. */

export class OutputCapture {
  private head = '';
  private tailParts: string[] = [];
  private tailLength = 0;
  private total = 0;
  private newlines = 0;
  private endsInNewline = true;

  constructor(private readonly maxChars: number) {}

  push(text: string): void {
    this.total += text.length;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.newlines++;
    if (text !== '') this.endsInNewline = text.endsWith('\n');
    const headRoom = Math.floor(this.maxChars / 2) - this.head.length;
    if (headRoom > 0) {
      this.head += text.slice(0, headRoom);
      text = text.slice(headRoom);
    }
    if (text === '') return;
    this.tailParts.push(text);
    this.tailLength += text.length;
    // Trim lazily so a flood of small chunks is not quadratic.
    const tailMax = this.maxChars - Math.floor(this.maxChars / 2);
    if (this.tailLength > tailMax * 2) this.compact(tailMax);
  }

  private compact(tailMax: number): void {
    const joined = this.tailParts.join('');
    const kept = joined.slice(joined.length - tailMax);
    this.tailParts = [kept];
    this.tailLength = kept.length;
  }

  get chars(): number {
    return this.total;
  }

  /** Lines of output, a last one without its newline included ("a\nb" is two). */
  get lines(): number {
    return this.newlines + (this.endsInNewline ? 0 : 1);
  }

  text(): string {
    const tailMax = this.maxChars - Math.floor(this.maxChars / 2);
    const tail = this.tailParts.join('');
    if (this.total <= this.maxChars) return this.head + tail;
    const keptTail = tail.slice(Math.max(0, tail.length - tailMax));
    const cut = this.total - this.head.length - keptTail.length;
    return `${this.head}\n[… ${cut} chars cut from the middle of ${this.total} (max_tool_output_chars = ${this.maxChars}) …]\n${keptTail}`;
  }
}
