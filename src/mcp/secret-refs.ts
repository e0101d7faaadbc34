/**
 * `${VAR}` and `${file:PATH}` in a server's env and headers, filled in when the server starts:
 * secrets live in the environment or a key file, never in the config. Every value filled in is
 * reported so the session can redact it from anything it saves.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

export class MissingSecretError extends Error {}

export function fillReferences(template: string, env: Env, baseDir: string, found: (secret: string) => void): string {
  return template.replace(/\$\{(file:[^}]+|[A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, ref: string) => {
    if (ref.startsWith('file:')) {
      const raw = ref.slice(5).trim();
      const path = raw.startsWith('~/') ? join(env['HOME'] || homedir(), raw.slice(2)) : isAbsolute(raw) ? raw : resolve(baseDir, raw);
      let value: string;
      try {
        value = readFileSync(path, 'utf8').trim();
      } catch (error) {
        throw new MissingSecretError(`key file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
      found(value);
      return value;
    }
    const value = env[ref];
    if (value === undefined || value === '') throw new MissingSecretError(`environment variable ${ref} is not set`);
    found(value);
    return value;
  });
}

export function fillAll(table: Readonly<Record<string, string>>, env: Env, baseDir: string, found: (secret: string) => void): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(table)) out[key] = fillReferences(value, env, baseDir, found);
  return out;
}

/**
 * What a stdio server inherits: enough to run (PATH, HOME, locale, temp, proxies), nothing
 * else — the provider keys and whatever else sits in the user's environment stay out.
 */
const PASS = /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|TERM|TZ|TMPDIR|TMP|TEMP|SYSTEMROOT|COMSPEC|PATHEXT|APPDATA|LOCALAPPDATA|USERPROFILE|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|LC_[A-Z]+|XDG_[A-Z_]+|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|npm_config_cache|NVM_DIR|VIRTUAL_ENV)$/;

export function scrubbedEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && PASS.test(key)) out[key] = value;
  return out;
}
