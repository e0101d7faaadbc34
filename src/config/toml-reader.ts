/**
 * Typed access to one parsed TOML table, with errors that name the file, the key and what was
 * expected. Every key that is read is remembered so the rest can be reported as unknown.
 */
import { ConfigError, describeValue } from './errors.js';

export type Table = Record<string, unknown>;

export function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export class TableReader {
  private readonly seen = new Set<string>();

  constructor(
    readonly table: Table,
    readonly file: string,
    /** Dotted prefix for nested tables, e.g. "presets[2]." */
    readonly prefix = '',
  ) {}

  keyName(key: string): string {
    return `${this.prefix}${key}`;
  }

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.table, key);
  }

  fail(key: string, expected: string, value?: unknown): never {
    const got = arguments.length >= 3 ? `, got ${describeValue(value)}` : '';
    throw new ConfigError(`${this.file}: key "${this.keyName(key)}": expected ${expected}${got}`, {
      file: this.file,
      key: this.keyName(key),
    });
  }

  raw(key: string): unknown {
    this.seen.add(key);
    return this.table[key];
  }

  string(key: string): string | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (typeof value !== 'string') this.fail(key, 'a string', value);
    return value;
  }

  nonEmptyString(key: string): string | undefined {
    const value = this.string(key);
    if (value !== undefined && value.trim() === '') this.fail(key, 'a non-empty string', value);
    return value;
  }

  boolean(key: string): boolean | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (typeof value !== 'boolean') this.fail(key, 'true or false', value);
    return value;
  }

  /** A whole number >= min. */
  integer(key: string, min = 1): number | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      this.fail(key, min === 0 ? 'a whole number >= 0' : `a whole number >= ${min}`, value);
    }
    return value;
  }

  /** A finite number >= 0 (prices). */
  amount(key: string): number | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) this.fail(key, 'a number >= 0', value);
    return value;
  }

  /** A finite number > 0 (a budget in dollars). */
  positiveAmount(key: string): number | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) this.fail(key, 'a number of dollars > 0', value);
    return value;
  }

  oneOf<T extends string>(key: string, choices: readonly T[]): T | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
      this.fail(key, `one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`, value);
    }
    return value as T;
  }

  /** A list of strings; a single string is accepted as a list of one when `allowSingle`. */
  stringList(key: string, allowSingle = false): string[] | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (allowSingle && typeof value === 'string') return [value];
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
      this.fail(key, allowSingle ? 'a string or a list of strings' : 'a list of strings', value);
    }
    return [...(value as string[])];
  }

  /** A nested table, or undefined. */
  subTable(key: string): TableReader | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (!isTable(value)) this.fail(key, 'a table', value);
    return new TableReader(value, this.file, `${this.keyName(key)}.`);
  }

  /** An array of tables ([[name]]), or undefined. */
  tableList(key: string): TableReader[] | undefined {
    if (!this.has(key)) return this.raw(key) as undefined;
    const value = this.raw(key);
    if (!Array.isArray(value) || value.some((item) => !isTable(item))) {
      this.fail(key, `a list of tables ([[${this.keyName(key)}]])`, value);
    }
    return (value as Table[]).map((item, index) => new TableReader(item, this.file, `${this.keyName(key)}[${index}].`));
  }

  /** Keys present in the table that nothing read. */
  unknownKeys(): string[] {
    return Object.keys(this.table).filter((key) => !this.seen.has(key));
  }
}
