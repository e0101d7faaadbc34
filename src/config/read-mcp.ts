/**
 * The `[mcp]` table: `[[mcp.servers]]` entries (or `[mcp.servers.NAME]` tables). A secret in a
 * server's env or headers is a reference — `${VAR}` for an environment variable, `${file:PATH}`
 * for a key file — never the value itself: a config file gets committed and shared.
 */
import type { TableReader } from './toml-reader.js';
import { isTable, TableReader as Reader } from './toml-reader.js';
import { resolveConfigPath } from './resolve-path.js';
import type { McpServerConfig } from './types.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names whose values are credentials: they must come from a reference. */
export const SECRET_NAME = /token|secret|passw|api[_-]?key|apikey|auth|bearer|credential|cookie|private/i;
const REFERENCE = /\$\{(?:file:[^}]+|[A-Za-z_][A-Za-z0-9_]*)\}/;

export const KNOWN_MCP = ['servers'];
export const KNOWN_MCP_SERVER = [
  'name', 'command', 'args', 'env', 'url', 'headers', 'allow', 'deny', 'timeout_ms', 'enabled',
  'oauth_client_id', 'oauth_client_secret_env', 'sandbox',
];

export interface McpContext {
  readonly baseDir: string;
  readonly home: string;
  readonly origin: 'user' | 'project';
  readonly warnUnknown: (r: TableReader, known: readonly string[]) => void;
  readonly warn: (line: string) => void;
}

export function readMcp(r: TableReader | undefined, ctx: McpContext): McpServerConfig[] | undefined {
  if (!r) return undefined;
  let entries: TableReader[] = [];
  if (r.has('servers')) {
    const value = r.raw('servers');
    if (Array.isArray(value)) entries = r.tableList('servers') ?? [];
    else if (isTable(value)) {
      // [mcp.servers.github] — the key is the name.
      entries = Object.entries(value).map(([name, table]) => {
        if (!isTable(table)) r.fail(`servers.${name}`, 'a table', table);
        return new Reader({ name, ...(table as Record<string, unknown>) }, r.file, `${r.keyName('servers')}.${name}.`);
      });
    } else r.fail('servers', 'a list of [[mcp.servers]] tables', value);
  }
  ctx.warnUnknown(r, KNOWN_MCP);
  const seen = new Set<string>();
  return entries.map((s) => {
    const server = readServer(s, ctx);
    if (seen.has(server.name)) s.fail('name', `a name no other MCP server in this file uses`, server.name);
    seen.add(server.name);
    return server;
  });
}

function readServer(s: TableReader, ctx: McpContext): McpServerConfig {
  const name = s.nonEmptyString('name');
  if (name === undefined) s.fail('name', 'a server name (every [[mcp.servers]] entry needs one)');
  // Tool names are mcp__SERVER__TOOL: a double underscore in the name would make them ambiguous.
  if (!NAME.test(name) || name.includes('__')) s.fail('name', 'letters, digits, "-" and "_" (no "__"), starting with a letter or digit', name);
  const command = s.nonEmptyString('command');
  const url = s.nonEmptyString('url');
  if ((command === undefined) === (url === undefined)) s.fail(command ? 'url' : 'command', 'either command (a stdio server) or url (an HTTP server), not both or neither');
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url)) s.fail('url', 'an http:// or https:// URL', url);
  const env = readEnv(s);
  const headers = readHeaders(s);
  const globs = (key: string): string[] => {
    const list = s.stringList(key, true) ?? [];
    for (const g of list) if (g.trim() === '') s.fail(key, 'tool-name patterns such as "get_*"', g);
    return list;
  };
  const secretEnv = s.nonEmptyString('oauth_client_secret_env');
  if (secretEnv !== undefined && !ENV_NAME.test(secretEnv)) s.fail('oauth_client_secret_env', 'the name of an environment variable', secretEnv);
  let sandbox = s.boolean('sandbox') ?? true;
  if (!sandbox && ctx.origin === 'project') {
    ctx.warn(`${s.file}: MCP server "${name}": sandbox = false is honoured only in your user config; it runs in the sandbox`);
    sandbox = true;
  }
  const server: McpServerConfig = {
    name,
    origin: ctx.origin,
    ...(command !== undefined ? { command: isPathy(command) ? resolveConfigPath(command, ctx.baseDir, ctx.home) : command } : {}),
    args: s.stringList('args') ?? [],
    env,
    ...(url !== undefined ? { url } : {}),
    headers,
    allow: globs('allow'),
    deny: globs('deny'),
    ...(s.has('timeout_ms') ? { timeoutMs: s.integer('timeout_ms', 100) } : {}),
    enabled: s.boolean('enabled') ?? true,
    ...(s.nonEmptyString('oauth_client_id') !== undefined ? { oauthClientId: s.nonEmptyString('oauth_client_id') } : {}),
    ...(secretEnv !== undefined ? { oauthClientSecretEnv: secretEnv } : {}),
    cwd: ctx.baseDir,
    sandbox,
  };
  ctx.warnUnknown(s, KNOWN_MCP_SERVER);
  return server;
}

function isPathy(command: string): boolean {
  return command.startsWith('./') || command.startsWith('../') || command.startsWith('~/');
}

/** env = { GITHUB_TOKEN = "${GH_TOKEN}" } or env = ["GITHUB_TOKEN"] (passed through by name). */
function readEnv(s: TableReader): Record<string, string> {
  if (!s.has('env')) return {};
  const value = s.raw('env');
  if (Array.isArray(value)) {
    const out: Record<string, string> = {};
    for (const v of value) {
      if (typeof v !== 'string' || !ENV_NAME.test(v)) s.fail('env', 'names of environment variables to pass on, or a table NAME = "${VARIABLE}"', v);
      out[v] = `\${${v}}`;
    }
    return out;
  }
  return readTemplates(s, 'env', value, (key) => ENV_NAME.test(key));
}

function readHeaders(s: TableReader): Record<string, string> {
  if (!s.has('headers')) return {};
  return readTemplates(s, 'headers', s.raw('headers'), (key) => /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key));
}

function readTemplates(s: TableReader, key: string, value: unknown, validName: (k: string) => boolean): Record<string, string> {
  if (!isTable(value)) s.fail(key, 'a table of NAME = "value"', value);
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!validName(name)) s.fail(`${key}.${name}`, key === 'env' ? 'a variable name' : 'a header name');
    if (typeof v !== 'string') s.fail(`${key}.${name}`, 'a string', v);
    if (SECRET_NAME.test(name) && !REFERENCE.test(v)) {
      s.fail(
        `${key}.${name}`,
        'a reference, not the secret itself: "${VARIABLE}" for an environment variable or "${file:PATH}" for a key file ' +
          '(a config file gets committed and shared)',
      );
    }
    out[name] = v;
  }
  return out;
}
