/**
 * A configuration problem the user must fix. The CLI prints `message` as-is (no stack trace) and
 * exits with `exitCode`, so the message has to say which file, which key and what was expected.
 */
export class ConfigError extends Error {
  readonly exitCode = 2;
  readonly file?: string;
  readonly key?: string;

  constructor(message: string, opts: { file?: string; key?: string } = {}) {
    super(message);
    this.name = 'ConfigError';
    this.file = opts.file;
    this.key = opts.key;
  }
}

export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof ConfigError;
}

/** Short, stable rendering of a value for "got …" in error messages. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'bigint':
      return `the number ${String(value)}`;
    case 'boolean':
      return `${String(value)}`;
    case 'object':
      return 'a table';
    default:
      return typeof value;
  }
}
