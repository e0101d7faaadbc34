/**
 * Reads the almost-JSON small models write for tool arguments: a code fence around it, trailing
 * commas, single quotes, unquoted keys, comments, raw line breaks inside strings, Python's
 * True/False/None, or prose after the object. It never invents what is missing: an object cut
 * off before its end (a reply stopped at max_tokens) stays unreadable, so it is never run.
 */

export interface NearJson {
  readonly value: unknown;
  /** What had to be repaired, in words for the verbose log (empty: it was plain JSON). */
  readonly repairs: readonly string[];
}

/** Undefined when the text cannot be read even so. */
export function parseNearJson(text: string): NearJson | undefined {
  const repairs = new Set<string>();
  let body = text.trim();
  const fence = /^```[\w-]*[^\S\n]*\n/.exec(body);
  if (fence) {
    const close = body.indexOf('```', fence[0].length);
    if (close < 0) return undefined;
    if (body.slice(close + 3).trim()) repairs.add('text after the JSON');
    body = body.slice(fence[0].length, close);
    repairs.add('code fence');
  }
  const reader = new Reader(body, repairs);
  try {
    reader.skipSpace();
    const value = reader.value();
    reader.skipSpace();
    if (!reader.atEnd()) repairs.add('text after the JSON');
    return { value, repairs: [...repairs] };
  } catch (err) {
    if (err instanceof Unreadable) return undefined;
    throw err;
  }
}

class Unreadable extends Error {}

const IDENT = /[A-Za-z_$][\w$-]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORDS: Readonly<Record<string, unknown>> = { true: true, false: false, null: null };
const PYTHON: Readonly<Record<string, unknown>> = { True: true, False: false, None: null };
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', "'": "'" };

class Reader {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly repairs: Set<string>,
  ) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpace(): void {
    for (;;) {
      while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
      if (this.text.startsWith('//', this.pos)) {
        const end = this.text.indexOf('\n', this.pos);
        this.pos = end < 0 ? this.text.length : end + 1;
        this.repairs.add('comments');
      } else if (this.text.startsWith('/*', this.pos)) {
        const end = this.text.indexOf('*/', this.pos + 2);
        if (end < 0) throw new Unreadable();
        this.pos = end + 2;
        this.repairs.add('comments');
      } else return;
    }
  }

  value(): unknown {
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"' || c === "'") return this.string();
    NUMBER.lastIndex = this.pos;
    const num = NUMBER.exec(this.text);
    if (num) {
      this.pos += num[0].length;
      return Number(num[0]);
    }
    const word = this.identifier();
    if (word !== undefined && word in WORDS) return WORDS[word];
    if (word !== undefined && word in PYTHON) {
      this.repairs.add('Python literals (True/False/None)');
      return PYTHON[word];
    }
    throw new Unreadable();
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    for (let first = true; ; first = false) {
      this.skipSpace();
      if (this.text[this.pos] === '}') {
        if (!first) this.repairs.add('trailing commas');
        this.pos++;
        return out;
      }
      const key = this.key();
      this.skipSpace();
      if (this.text[this.pos] !== ':') throw new Unreadable();
      this.pos++;
      this.skipSpace();
      out[key] = this.value();
      this.skipSpace();
      const next = this.text[this.pos++];
      if (next === '}') return out;
      if (next !== ',') throw new Unreadable();
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    for (let first = true; ; first = false) {
      this.skipSpace();
      if (this.text[this.pos] === ']') {
        if (!first) this.repairs.add('trailing commas');
        this.pos++;
        return out;
      }
      out.push(this.value());
      this.skipSpace();
      const next = this.text[this.pos++];
      if (next === ']') return out;
      if (next !== ',') throw new Unreadable();
    }
  }

  private key(): string {
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string();
    const word = this.identifier();
    if (word === undefined) throw new Unreadable();
    this.repairs.add('unquoted keys');
    return word;
  }

  private identifier(): string | undefined {
    IDENT.lastIndex = this.pos;
    const m = IDENT.exec(this.text);
    if (!m) return undefined;
    this.pos += m[0].length;
    return m[0];
  }

  private string(): string {
    const quote = this.text[this.pos++]!;
    if (quote === "'") this.repairs.add('single quotes');
    let out = '';
    for (;;) {
      const c = this.text[this.pos++];
      if (c === undefined) throw new Unreadable();
      if (c === quote) return out;
      if (c === '\\') {
        const e = this.text[this.pos++];
        if (e === undefined) throw new Unreadable();
        if (e === 'u') {
          const hex = this.text.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Unreadable();
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
        } else out += ESCAPES[e] ?? e;
      } else {
        if (c === '\n' || c === '\r' || c === '\t') this.repairs.add('raw line breaks or tabs in strings');
        out += c;
      }
    }
  }
}
