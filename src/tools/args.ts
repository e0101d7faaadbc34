/**
 * Argument checking shared by every tool: a missing or mistyped argument becomes an error naming
 * the argument, never an exception.
 */

export class ArgumentError extends Error {}

export type Args = Record<string, unknown>;

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

export function requireString(args: Args, name: string, opts: { nonEmpty?: boolean } = {}): string {
  const value = args[name];
  if (value === undefined) throw new ArgumentError(`missing required argument "${name}" (a string)`);
  if (typeof value !== 'string') throw new ArgumentError(`argument "${name}" must be a string, got ${describe(value)}`);
  if (opts.nonEmpty === true && value.trim() === '') throw new ArgumentError(`argument "${name}" must not be empty`);
  return value;
}

export function optionalString(args: Args, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ArgumentError(`argument "${name}" must be a string, got ${describe(value)}`);
  return value;
}

export function optionalInteger(args: Args, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  let value = args[name];
  if (value === undefined || value === null) return undefined;
  // Some models send numbers as strings; a clean integer string is accepted.
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) value = Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new ArgumentError(`argument "${name}" must be an integer, got ${describe(value)}`);
  }
  if (value < min) throw new ArgumentError(`argument "${name}" must be at least ${min}, got ${value}`);
  if (value > max) throw new ArgumentError(`argument "${name}" must be at most ${max}, got ${value}`);
  return value;
}

export function optionalBoolean(args: Args, name: string): boolean | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value !== 'boolean') throw new ArgumentError(`argument "${name}" must be true or false, got ${describe(value)}`);
  return value;
}
