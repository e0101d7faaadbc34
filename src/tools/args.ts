/**
 * The one argument checker every tool uses, built-in and code-map alike. A tool declares its
 * arguments once with these builders; the JSON schema the model sees and the parser that checks
 * what the model sent are both made from that declaration, so they cannot disagree. A missing or
 * mistyped argument becomes an ArgumentError naming the argument, never an exception elsewhere.
 */
import type { JsonSchemaObject } from '../providers/types.js';

export class ArgumentError extends Error {}

export type Args = Record<string, unknown>;

/** One argument: its schema for the model and how its value is checked. */
export interface ArgSpec<T> {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly required: boolean;
  /** Checks a value that is present (not undefined or null) and returns it typed. */
  check(value: unknown, name: string): T;
}

export type ArgSpecs = Readonly<Record<string, ArgSpec<unknown>>>;

/** The typed arguments a declaration parses to: optional ones may be undefined. */
export type ParsedArgs<S extends ArgSpecs> = { readonly [K in keyof S]: S[K] extends ArgSpec<infer T> ? T : never };

export function asObject(input: unknown): Args {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ArgumentError('arguments must be a JSON object');
  }
  return input as Args;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function spec<T>(schema: Record<string, unknown>, check: (value: unknown, name: string) => T): ArgSpec<T> {
  return { schema, required: true, check };
}

export interface StringOptions {
  /** Refuse a value that is empty or only spaces. */
  readonly nonEmpty?: boolean;
  /** Hand the value over trimmed. */
  readonly trim?: boolean;
  /** What the message says the argument must be, when plain "a string" says too little. */
  readonly expects?: string;
}

export interface IntegerOptions {
  readonly min?: number;
  readonly max?: number;
  /** Values above this are lowered to it instead of refused. */
  readonly clampTo?: number;
  /** Whether the schema shows `minimum` (default true when min is set). */
  readonly minInSchema?: boolean;
  /** What the message says the argument must be, for every violation ('a positive integer'). */
  readonly expects?: string;
}

export const arg = {
  string(description: string, opts: StringOptions = {}): ArgSpec<string> {
    return spec({ type: 'string', description }, (value, name) => {
      const must = `argument "${name}" must be ${opts.expects ?? 'a string'}`;
      if (typeof value !== 'string') throw new ArgumentError(`${must}, got ${describe(value)}`);
      if (opts.nonEmpty === true && value.trim() === '') throw new ArgumentError(opts.expects ? `${must}, got an empty one` : `argument "${name}" must not be empty`);
      return opts.trim === true ? value.trim() : value;
    });
  },

  integer(description: string, opts: IntegerOptions = {}): ArgSpec<number> {
    const showMin = opts.min !== undefined && opts.minInSchema !== false;
    const schema = showMin ? { type: 'integer', minimum: opts.min, description } : { type: 'integer', description };
    return spec(schema, (raw, name) => {
      let value = raw;
      // Some models send numbers as strings; a clean integer string is accepted.
      if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) value = Number(value);
      const fail = (plain: string): never => {
        throw new ArgumentError(opts.expects ? `argument "${name}" must be ${opts.expects}, got ${typeof value === 'number' ? value : describe(value)}` : plain);
      };
      if (typeof value !== 'number' || !Number.isInteger(value)) return fail(`argument "${name}" must be an integer, got ${describe(value)}`);
      if (opts.min !== undefined && value < opts.min) return fail(`argument "${name}" must be at least ${opts.min}, got ${value}`);
      if (opts.max !== undefined && value > opts.max) return fail(`argument "${name}" must be at most ${opts.max}, got ${value}`);
      return opts.clampTo !== undefined ? Math.min(value, opts.clampTo) : value;
    });
  },

  boolean(description: string): ArgSpec<boolean> {
    return spec({ type: 'boolean', description }, (value, name) => {
      if (value === 'true') return true;
      if (value === 'false') return false;
      if (typeof value !== 'boolean') throw new ArgumentError(`argument "${name}" must be true or false, got ${describe(value)}`);
      return value;
    });
  },
};

/** The same argument, optional: absent (or null) parses to undefined. */
export function optional<T>(inner: ArgSpec<T>): ArgSpec<T | undefined> {
  return { ...inner, required: false };
}

/**
 * The schema the model sees. `closed` adds `additionalProperties: false` (the built-in tools say
 * so; the code map's tools never did, and their schema stays byte-identical).
 */
export function objectSchema(specs: ArgSpecs, closed: boolean): JsonSchemaObject {
  const properties = Object.fromEntries(Object.entries(specs).map(([name, s]) => [name, s.schema]));
  const required = Object.entries(specs).flatMap(([name, s]) => (s.required ? [name] : []));
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

const TYPE_NOUN: Readonly<Record<string, string>> = { string: 'a string', integer: 'an integer', boolean: 'true or false' };

/** Checks `input` against the declaration; throws ArgumentError naming the first bad argument. */
export function parseArgs<S extends ArgSpecs>(specs: S, input: unknown): ParsedArgs<S> {
  const args = asObject(input);
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(specs)) {
    const value = args[name];
    if (value === undefined || value === null) {
      if (s.required) throw new ArgumentError(`missing required argument "${name}" (${TYPE_NOUN[String(s.schema['type'])] ?? 'a value'})`);
      continue;
    }
    out[name] = s.check(value, name);
  }
  return out as ParsedArgs<S>;
}
