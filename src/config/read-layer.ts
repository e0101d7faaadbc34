/** Turns one parsed TOML file into a validated ConfigLayer, collecting unknown-key warnings. */
import { isUnsafeCodePoint } from '../policy/escape.js';
import { ConfigError } from './errors.js';
import type { ConfigLayer, PolicyLayer, PresetLayer } from './layer.js';
import { KNOWN_MCP, KNOWN_MCP_SERVER, readMcp } from './read-mcp.js';
import { resolveConfigPath } from './resolve-path.js';
import { isTable, TableReader, type Table } from './toml-reader.js';
import { DEFAULTS } from './defaults.js';
import { HOOK_EVENTS, type BashRule, type CodeMapSettings, type HookEntry, type HookEvent, type Level, type PathRule, type ProxySetting } from './types.js';
import { parseHostPattern } from '../sandbox/host-patterns.js';

const LEVELS: readonly Level[] = ['allow', 'confirm', 'deny'];
const EFFORTS = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
const TOOL_PROFILES = ['full', 'small'] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CACHE_TTLS = ['5m', '1h'] as const;
/** Below this a reply cap would cut off ordinary answers. */
const MIN_REPLY_BYTES = 1024;
/** Keys that would hold a secret: refused, because a config file gets committed and shared. */
const SECRET_KEYS = new Set(['api_key', 'apikey', 'key', 'token', 'api_token', 'access_token', 'auth_token', 'secret', 'secret_key', 'password', 'bearer']);

export interface LayerContext {
  readonly file: string;
  /** Relative paths in this file are taken from here: the project root, or HOME for the user file. */
  readonly baseDir: string;
  readonly home: string;
  /** Whose file it is: a project's MCP servers are marked so their annotations are not believed. */
  readonly origin?: 'user' | 'project';
}

export function readLayer(table: Table, ctx: LayerContext, warnings: string[]): ConfigLayer {
  const r = new TableReader(table, ctx.file);
  refuseSecrets(r);
  const path = (key: string): string | undefined => {
    const value = r.nonEmptyString(key);
    return value === undefined ? undefined : resolveConfigPath(value, ctx.baseDir, ctx.home);
  };
  const layer: ConfigLayer = {
    file: ctx.file,
    defaultPreset: r.nonEmptyString('default_preset'),
    trustedProjects: r.stringList('trusted_projects')?.map((p) => {
      // "" would resolve to the base folder (HOME) and silently trust every project under it.
      if (p.trim() === '') r.fail('trusted_projects', 'folder paths, none of them empty', p);
      return resolveConfigPath(p, ctx.baseDir, ctx.home);
    }),
    presets: r.tableList('presets')?.map((p: TableReader) => readPreset(p, ctx, warnings)),
    policy: readPolicy(r.subTable('policy'), ctx, warnings),
    proxy: readProxy(r, 'proxy'),
    noProxy: r.stringList('no_proxy', true),
    auditLog: path('audit_log'),
    sessionRetentionDays: r.integer('session_retention_days', 0),
    contextFile: path('context_file'),
    commitTrailer: printableLine(r, 'commit_trailer'),
    plugins: r.stringList('plugins', true)?.map((p) => (isPathLike(p) ? resolveConfigPath(p, ctx.baseDir, ctx.home) : p)),
    maxToolSteps: r.integer('max_tool_steps'),
    maxRetries: r.integer('max_retries', 0),
    maxFileSizeBytes: r.integer('max_file_size_bytes'),
    maxToolOutputChars: r.integer('max_tool_output_chars'),
    bashTimeoutMs: r.integer('bash_timeout_ms'),
    streamIdleTimeoutMs: r.integer('stream_idle_timeout_ms'),
    maxReplyBytes: r.integer('max_reply_bytes', MIN_REPLY_BYTES),
    maxCallsPerReply: r.integer('max_calls_per_reply'),
    rewindMaxMb: r.integer('rewind_max_mb', 0),
    loopDetectionWindow: r.integer('loop_detection_window', 0),
    offloadEagerTokens: r.integer('offload_eager_tokens'),
    offloadThresholdTokens: r.integer('offload_threshold_tokens'),
    protectedTokens: r.integer('protected_tokens', 0),
    maxCostPerTurn: r.positiveAmount('max_cost_per_turn'),
    maxCostPerSession: r.positiveAmount('max_cost_per_session'),
    maxTokensPerTurn: r.integer('max_tokens_per_turn', 1),
    markdown: r.boolean('markdown'),
    codeMap: readCodeMap(r, warnings),
    mcpServers: readMcp(r.subTable('mcp'), {
      baseDir: ctx.baseDir,
      home: ctx.home,
      origin: ctx.origin ?? 'user',
      warnUnknown: (t, known) => warnUnknown(t, warnings, known),
      warn: (line) => warnings.push(line),
    }),
    mcpSchemaBudget: r.integer('mcp_schema_budget', 100),
    sandbox: r.oneOf('sandbox', ['auto', 'required', 'off'] as const),
    sandboxWritable: r.stringList('sandbox_writable', true)?.map((p) => {
      // "" would resolve to the base folder (HOME or the project) and open all of it.
      if (p.trim() === '') r.fail('sandbox_writable', 'folder or file paths, none of them empty', p);
      return resolveConfigPath(p, ctx.baseDir, ctx.home);
    }),
    sandboxNetwork: r.stringList('sandbox_network', true)?.map((entry) => {
      const parsed = parseHostPattern(entry);
      return parsed.ok ? parsed.pattern : r.fail('sandbox_network', parsed.expected, entry);
    }),
    bashInSandbox: r.oneOf('bash_in_sandbox', ['confirm', 'allow'] as const),
    toolProfile: r.oneOf('tool_profile', TOOL_PROFILES),
    hooks: readHooks(r.subTable('hooks'), warnings),
  };
  warnUnknown(r, warnings, KNOWN_TOP);
  return layer;
}

const KNOWN_TOP = [
  'default_preset', 'trusted_projects', 'presets', 'policy', 'proxy', 'no_proxy', 'audit_log',
  'session_retention_days', 'context_file', 'commit_trailer', 'plugins', 'max_tool_steps', 'max_retries',
  'max_file_size_bytes', 'max_tool_output_chars', 'bash_timeout_ms', 'stream_idle_timeout_ms', 'max_reply_bytes', 'max_calls_per_reply', 'rewind_max_mb',
  'loop_detection_window', 'offload_eager_tokens', 'offload_threshold_tokens', 'protected_tokens', 'markdown',
  'code_map', 'tool_profile', 'mcp', 'mcp_schema_budget', 'sandbox', 'sandbox_writable', 'sandbox_network', 'bash_in_sandbox',
  'hooks',
  'max_cost_per_turn', 'max_cost_per_session', 'max_tokens_per_turn',
];
const KNOWN_PRESET = [
  'name', 'format', 'base_url', 'model', 'api_key_env', 'key_file', 'thinking', 'thinking_effort', 'vision',
  'context_window', 'max_tokens', 'echo_reasoning', 'price_input', 'price_cache_read', 'price_cache_write',
  'price_output', 'proxy', 'prompt_cache', 'cache_ttl', 'tool_profile',
];
const KNOWN_POLICY = ['read', 'write', 'delete', 'bash', 'read_outside', 'bash_allowlist', 'bash_denylist', 'bash_rules', 'rules'];
const KNOWN_BASH_RULE = ['prefix', 'exact'];
const KNOWN_RULE = ['path', 'read', 'write', 'delete'];
const KNOWN_CODE_MAP = ['enabled', 'budget_tokens'];
const KNOWN_HOOK = ['matcher', 'command', 'timeout_ms'];

/** Every key the config understands, dotted, for the example-file test. */
export const KNOWN_KEYS = {
  top: KNOWN_TOP,
  preset: KNOWN_PRESET,
  policy: KNOWN_POLICY,
  rule: KNOWN_RULE,
  codeMap: KNOWN_CODE_MAP,
  hookEvents: HOOK_EVENTS,
  hook: KNOWN_HOOK,
  mcp: KNOWN_MCP,
  mcpServer: KNOWN_MCP_SERVER,
} as const;

/** The longest delay a timer honours (about 24.8 days): a longer timeout would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `[[hooks.EVENT]]` entries: each needs a command; a matcher must be a pattern that compiles. */
function readHooks(r: TableReader | undefined, warnings: string[]): HookEntry[] | undefined {
  if (!r) return undefined;
  const entries: HookEntry[] = [];
  for (const event of HOOK_EVENTS) {
    for (const h of r.tableList(event) ?? []) entries.push(readHook(h, event, warnings));
  }
  for (const key of r.unknownKeys()) {
    // closest() compares in lower case; the events are spelled in capitals.
    const lower = closest(key, HOOK_EVENTS.map((name) => name.toLowerCase()));
    const guess = HOOK_EVENTS.find((name) => name.toLowerCase() === lower);
    const hint = guess ? ` (did you mean "${r.prefix}${guess}"?)` : ` (events: ${HOOK_EVENTS.join(', ')})`;
    warnings.push(`${r.file}: unknown hook event "${r.keyName(key)}" ignored${hint}`);
  }
  return entries;
}

function readHook(h: TableReader, event: HookEvent, warnings: string[]): HookEntry {
  const command = h.nonEmptyString('command');
  if (command === undefined) h.fail('command', `a command line (every [[hooks.${event}]] entry needs one)`);
  const matcher = h.string('matcher');
  if (matcher !== undefined && matcher !== '' && matcher !== '*') {
    try {
      new RegExp(`^(?:${matcher})$`);
    } catch (error) {
      h.fail('matcher', `a tool name, names joined with "|", or a regular expression (${(error as Error).message})`, matcher);
    }
  }
  const timeoutMs = h.integer('timeout_ms') ?? DEFAULTS.hookTimeoutMs;
  if (h.has('timeout')) {
    h.raw('timeout');
    warnings.push(`${h.file}: key "${h.keyName('timeout')}" ignored: Claude Code's timeout is in seconds; lindwyrm reads timeout_ms (milliseconds)`);
  }
  if (timeoutMs > MAX_TIMER_MS) h.fail('timeout_ms', `a whole number of milliseconds up to ${MAX_TIMER_MS}`, timeoutMs);
  warnUnknown(h, warnings, KNOWN_HOOK);
  return { event, command, timeoutMs, file: h.file, ...(matcher !== undefined && matcher !== '' && matcher !== '*' ? { matcher } : {}) };
}

function readPreset(r: TableReader, ctx: LayerContext, warnings: string[]): PresetLayer {
  refuseSecrets(r);
  const name = r.nonEmptyString('name');
  if (name === undefined) r.fail('name', 'a preset name (every [[presets]] entry needs one)');
  if (name.includes(':')) r.fail('name', 'a name without ":" (it separates a preset from a model in -m)', name);
  const apiKeyEnv = r.stringList('api_key_env', true);
  apiKeyEnv?.forEach((variable) => {
    if (!ENV_NAME.test(variable)) {
      r.fail('api_key_env', 'names of environment variables (e.g. "DEEPSEEK_API_KEY"), not the key itself', variable);
    }
  });
  const baseUrl = r.nonEmptyString('base_url');
  if (baseUrl !== undefined) checkBaseUrl(r, baseUrl);
  const keyFile = r.nonEmptyString('key_file');
  const echo = r.raw('echo_reasoning');
  if (echo !== undefined && echo !== 'auto' && typeof echo !== 'boolean') r.fail('echo_reasoning', '"auto", true or false', echo);
  const preset: PresetLayer = {
    name,
    where: r.prefix.replace(/\.$/, ''),
    format: r.oneOf('format', ['anthropic', 'openai', 'ollama'] as const),
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    model: r.string('model'),
    apiKeyEnv,
    keyFile: keyFile === undefined ? undefined : resolveConfigPath(keyFile, ctx.baseDir, ctx.home),
    thinking: r.boolean('thinking'),
    thinkingEffort: r.oneOf('thinking_effort', EFFORTS),
    vision: r.boolean('vision'),
    contextWindow: r.integer('context_window', 1024),
    maxTokens: r.integer('max_tokens'),
    echoReasoning: echo as 'auto' | boolean | undefined,
    toolProfile: r.oneOf('tool_profile', TOOL_PROFILES),
    priceInput: r.amount('price_input'),
    priceCacheRead: r.amount('price_cache_read'),
    priceCacheWrite: r.amount('price_cache_write'),
    priceOutput: r.amount('price_output'),
    proxy: readProxy(r, 'proxy'),
    promptCache: r.boolean('prompt_cache'),
    cacheTtl: r.oneOf('cache_ttl', CACHE_TTLS),
  };
  warnUnknown(r, warnings, KNOWN_PRESET);
  return preset;
}

/**
 * An http(s) URL without user info. `https://key@host/` looks like a way to pass a key, but the
 * part before "@" is sent to whatever host follows it — and `https://api.example.com@evil.test/`
 * is a URL for evil.test. The value is not quoted back: it may hold the key.
 */
function checkBaseUrl(r: TableReader, baseUrl: string): void {
  if (!/^https?:\/\/[^/]/i.test(baseUrl)) r.fail('base_url', 'an http:// or https:// URL', baseUrl);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return r.fail('base_url', 'an http:// or https:// URL', baseUrl);
  }
  if (url.username !== '' || url.password !== '' || /^https?:\/\/[^/?#]*@/i.test(baseUrl)) {
    r.fail(
      'base_url',
      `a URL without user info before "@" (it would send what precedes "@" to the host ${url.host}); ` +
        'put the API key in an environment variable named in api_key_env, or in key_file',
    );
  }
}

function readPolicy(r: TableReader | undefined, ctx: LayerContext, warnings: string[]): PolicyLayer | undefined {
  if (!r) return undefined;
  const rules = r.tableList('rules')?.map((rule: TableReader): PathRule => {
    const path = rule.nonEmptyString('path');
    if (path === undefined) rule.fail('path', 'a path (every [[policy.rules]] entry needs one)');
    const entry: PathRule = {
      path: resolveConfigPath(path, ctx.baseDir, ctx.home),
      read: rule.oneOf('read', LEVELS),
      write: rule.oneOf('write', LEVELS),
      delete: rule.oneOf('delete', LEVELS),
    };
    warnUnknown(rule, warnings, KNOWN_RULE);
    return entry;
  });
  const policy: PolicyLayer = {
    read: r.oneOf('read', LEVELS),
    write: r.oneOf('write', LEVELS),
    delete: r.oneOf('delete', LEVELS),
    bash: r.oneOf('bash', LEVELS),
    readOutside: r.oneOf('read_outside', LEVELS),
    bashAllowlist: r.stringList('bash_allowlist'),
    bashDenylist: r.stringList('bash_denylist'),
    bashRules: r.tableList('bash_rules')?.map((rule: TableReader) => readBashRule(rule, warnings)),
    rules,
  };
  warnUnknown(r, warnings, KNOWN_POLICY);
  return policy;
}

/** `prefix = ["npm", "test"]` or `exact = "rm -rf ./tmp"`: a list of words, or one string split on spaces. */
function readBashRule(rule: TableReader, warnings: string[]): BashRule {
  const words = (key: 'prefix' | 'exact'): string[] | undefined => {
    if (!rule.has(key)) return undefined;
    const value = rule.raw(key);
    const list = typeof value === 'string' ? value.trim().split(/\s+/) : rule.stringList(key);
    if (list === undefined || list.length === 0 || list[0] === '') rule.fail(key, 'the command\'s words, as a list of strings or one string', value);
    return list;
  };
  const prefix = words('prefix');
  const exact = words('exact');
  if ((prefix === undefined) === (exact === undefined)) {
    rule.fail(prefix === undefined ? 'prefix' : 'exact', 'exactly one of prefix or exact in each [[policy.bash_rules]] entry');
  }
  warnUnknown(rule, warnings, KNOWN_BASH_RULE);
  return prefix !== undefined ? { words: prefix, match: 'prefix' } : { words: exact ?? [], match: 'exact' };
}

/**
 * One line of printable text (a commit trailer): a newline would add lines, or whole trailers, to
 * every commit; a control or invisible character would make the log say what nobody reads.
 */
function printableLine(r: TableReader, key: string): string | undefined {
  const value = r.string(key);
  if (value === undefined) return undefined;
  if (value.trim() === '') r.fail(key, 'one line of printable text, not an empty one', value);
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0x0a || cp === 0x0d) r.fail(key, 'one line of printable text (it contains a line break)');
    if (cp === 0x09 || isUnsafeCodePoint(cp)) {
      r.fail(key, `one line of printable text (it contains U+${cp.toString(16).toUpperCase().padStart(4, '0')}, a control or invisible character)`);
    }
  }
  return value;
}

function readProxy(r: TableReader, key: string): ProxySetting {
  if (!r.has(key)) return r.raw(key) as undefined;
  const value = r.raw(key);
  if (value === false || value === 'system') return value;
  const expected = 'a proxy URL (http://, https://, socks5://, socks5h://), false or "system"';
  if (typeof value !== 'string') r.fail(key, expected, value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return r.fail(key, expected, value);
  }
  if (!['http:', 'https:', 'socks5:', 'socks5h:', 'socks:'].includes(url.protocol)) r.fail(key, expected, value);
  return value;
}

function readCodeMap(r: TableReader, warnings: string[]): CodeMapSettings | undefined {
  if (!r.has('code_map')) return r.raw('code_map') as undefined;
  const value = r.raw('code_map');
  if (typeof value === 'boolean') return { enabled: value };
  if (!isTable(value)) r.fail('code_map', 'true, false or a table ([code_map])', value);
  const sub = r.subTable('code_map');
  if (!sub) return undefined;
  const enabled = sub.boolean('enabled') ?? true;
  const budgetTokens = sub.integer('budget_tokens', 100);
  warnUnknown(sub, warnings, KNOWN_CODE_MAP);
  return budgetTokens === undefined ? { enabled } : { enabled, budgetTokens };
}

function refuseSecrets(r: TableReader): void {
  for (const key of Object.keys(r.table)) {
    if (SECRET_KEYS.has(key.toLowerCase())) {
      throw new ConfigError(
        `${r.file}: key "${r.keyName(key)}": API keys are never read from a config file (a config gets ` +
          'committed and shared). Put the key in an environment variable named in api_key_env, or in a ' +
          'file named by key_file, and remove this line.',
        { file: r.file, key: r.keyName(key) },
      );
    }
  }
}

function warnUnknown(r: TableReader, warnings: string[], known: readonly string[]): void {
  for (const key of r.unknownKeys()) {
    const guess = closest(key, known);
    const hint = guess ? ` (did you mean "${r.prefix}${guess}"?)` : '';
    warnings.push(`${r.file}: unknown key "${r.keyName(key)}" ignored${hint}`);
  }
}

function isPathLike(value: string): boolean {
  return value.startsWith('.') || value.startsWith('/') || value.startsWith('~');
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
