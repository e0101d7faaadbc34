/**
 * A wrapped command as one shell command line, for runners that take `shell -c LINE` rather than
 * an argv and an environment (the editor's terminal over ACP): the sandbox's changes to the
 * environment become `unset`/`export`, then the argv is exec'd, each word quoted.
 */
import type { WrappedCommand } from './types.js';

const quote = (s: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function asShellCommand(wrapped: Pick<WrappedCommand, 'argv' | 'env'>, base: NodeJS.ProcessEnv): string {
  const parts: string[] = [];
  for (const name of Object.keys(base)) if (NAME.test(name) && wrapped.env[name] === undefined) parts.push(`unset ${name};`);
  for (const [name, value] of Object.entries(wrapped.env)) {
    if (value !== undefined && NAME.test(name) && base[name] !== value) parts.push(`export ${name}=${quote(value)};`);
  }
  parts.push('exec', ...wrapped.argv.map(quote));
  return parts.join(' ');
}
