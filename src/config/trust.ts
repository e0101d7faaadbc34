/**
 * The trust rules for a project's .lindwyrm.toml: a file that arrives with `git clone` may not
 * redirect traffic or keys, change what is kept on disk, or loosen the user's permissions.
 */
import type { ConfigLayer, PolicyLayer } from './layer.js';
import { isInside } from './resolve-path.js';
import type { Level, PolicySettings, SandboxMode } from './types.js';

export interface TrustOutcome {
  /** The project layer with everything it may not set removed. */
  readonly layer: ConfigLayer;
  /** What the project tried and was refused, one short phrase each. */
  readonly refused: readonly string[];
  /** True when the user's own policy must act as a floor under the merged one. */
  readonly needsFloor: boolean;
}

export function isTrustedProject(projectRoot: string, trustedProjects: readonly string[] | undefined): boolean {
  return (trustedProjects ?? []).some((trusted) => isInside(projectRoot, trusted));
}

export function restrictProjectLayer(
  project: ConfigLayer,
  opts: {
    trusted: boolean;
    projectRoot: string;
    userPolicy: PolicySettings;
    /** The user's own limits (their file, else the defaults): an untrusted project may only lower them. */
    /** The user's limits and budgets; an unset budget means unlimited, which a project may lower to anything. */
    userLimits?: Partial<Record<LimitKey | 'maxCostPerTurn' | 'maxCostPerSession' | 'maxTokensPerTurn' | 'rewindMaxMb', number>>;
    /** The user's own file, for the sandbox settings an untrusted project may only tighten. */
    user?: ConfigLayer;
  },
): TrustOutcome {
  const refused: string[] = [];
  // A project can never vouch for itself, trusted or not.
  let layer: ConfigLayer = project.trustedProjects ? { ...project, trustedProjects: undefined } : project;
  if (project.trustedProjects && project.trustedProjects.length > 0) refused.push('trusted_projects (only your user config can trust a project)');
  if (opts.trusted) return { layer, refused, needsFloor: false };

  const drop = <K extends keyof ConfigLayer>(key: K, label: string): void => {
    if (layer[key] === undefined) return;
    refused.push(label);
    layer = { ...layer, [key]: undefined };
  };
  if (layer.presets && layer.presets.length > 0) {
    const names = layer.presets.map((p) => p.name).join(', ');
    const fields = [
      layer.presets.some((p) => p.baseUrl !== undefined) ? 'base_url' : '',
      layer.presets.some((p) => p.keyFile !== undefined) ? 'key_file' : '',
    ].filter(Boolean);
    refused.push(`presets (${names}${fields.length ? `; sets ${fields.join(', ')}` : ''})`);
  }
  layer = { ...layer, presets: undefined };
  drop('proxy', 'proxy');
  drop('noProxy', 'no_proxy');
  drop('auditLog', 'audit_log');
  drop('sessionRetentionDays', 'session_retention_days');
  drop('commitTrailer', 'commit_trailer');
  drop('plugins', 'plugins');
  if (layer.hooks && layer.hooks.length > 0) {
    // Named one by one: a hook is code that would run on the user's machine.
    refused.push(`hooks (${layer.hooks.map((h) => `${h.event}: ${h.command}`).join(', ')})`);
  }
  layer = { ...layer, hooks: undefined };
  if (layer.mcpServers && layer.mcpServers.length > 0) {
    // Starting a server runs its code: a cloned repository's servers wait until it is trusted.
    refused.push(`mcp.servers (${layer.mcpServers.map((s) => s.name).join(', ')}: not started)`);
  }
  layer = { ...layer, mcpServers: undefined };
  if (layer.contextFile !== undefined && !isInside(layer.contextFile, opts.projectRoot)) {
    drop('contextFile', `context_file outside the project (${layer.contextFile})`);
  }
  for (const [key, name, direction] of LIMITS) {
    const own = opts.userLimits?.[key];
    const wanted = layer[key];
    if (own === undefined || wanted === undefined) continue;
    if (direction === 'at most' && wanted > own) drop(key, `${name} above your own (${wanted} > ${own})`);
    if (direction === 'at least' && wanted < own) drop(key, `${name} below your own (${wanted} < ${own})`);
  }
  const budgets = [
    ['maxCostPerTurn', 'max_cost_per_turn'],
    ['maxCostPerSession', 'max_cost_per_session'],
    ['maxTokensPerTurn', 'max_tokens_per_turn'],
  ] as const;
  for (const [field, key] of budgets) {
    const own = opts.userLimits?.[field];
    const wanted = layer[field];
    if (own !== undefined && wanted !== undefined && wanted > own) drop(field, `${key} above your own (${wanted} > ${own})`);
  }
  // What is kept on disk is the user's to decide: a cloned project may keep less, never more.
  const storeCap = opts.userLimits?.rewindMaxMb;
  if (storeCap !== undefined && layer.rewindMaxMb !== undefined && layer.rewindMaxMb > storeCap) {
    drop('rewindMaxMb', `rewind_max_mb above your own (${layer.rewindMaxMb} > ${storeCap})`);
  }
  if (layer.policy) refused.push(...looserPolicy(layer.policy, opts.userPolicy));
  const sandbox = tighterSandbox(layer, opts.user, opts.projectRoot);
  refused.push(...sandbox.refused);
  layer = sandbox.layer;
  return { layer, refused, needsFloor: layer.policy !== undefined };
}

/**
 * Limits a cloned project may only tighten: more steps, retries, time, output or calls per reply
 * cost the user money or wait, so a project can lower them, never raise them. The loop window
 * works the other way: a smaller one (0 turns it off) lets a stuck model repeat itself longer.
 */
export const LIMITS = [
  ['maxToolSteps', 'max_tool_steps', 'at most'],
  ['maxRetries', 'max_retries', 'at most'],
  ['bashTimeoutMs', 'bash_timeout_ms', 'at most'],
  ['streamIdleTimeoutMs', 'stream_idle_timeout_ms', 'at most'],
  ['maxToolOutputChars', 'max_tool_output_chars', 'at most'],
  ['maxFileSizeBytes', 'max_file_size_bytes', 'at most'],
  ['maxReplyBytes', 'max_reply_bytes', 'at most'],
  ['maxCallsPerReply', 'max_calls_per_reply', 'at most'],
  ['loopDetectionWindow', 'loop_detection_window', 'at least'],
] as const;

export type LimitKey = (typeof LIMITS)[number][0];
const SANDBOX_RANK: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

/**
 * An untrusted project may make the sandbox stricter (sandbox = "required", bash_in_sandbox =
 * "confirm") but not open it: no "off", no auto-allow, no writable paths outside the project and
 * no hosts of its own. What it may not add is dropped; the user's own lists stay as they are.
 */
function tighterSandbox(project: ConfigLayer, user: ConfigLayer | undefined, projectRoot: string): { layer: ConfigLayer; refused: string[] } {
  const refused: string[] = [];
  let layer = project;
  const userMode = user?.sandbox ?? 'auto';
  if (layer.sandbox !== undefined && SANDBOX_RANK[layer.sandbox] < SANDBOX_RANK[userMode]) {
    refused.push(`sandbox = "${layer.sandbox}"`);
    layer = { ...layer, sandbox: undefined };
  }
  if (layer.bashInSandbox === 'allow' && user?.bashInSandbox !== 'allow') {
    refused.push('bash_in_sandbox = "allow"');
    layer = { ...layer, bashInSandbox: undefined };
  }
  if (layer.sandboxWritable !== undefined) {
    const extra = layer.sandboxWritable.filter((p) => !isInside(p, projectRoot) && !(user?.sandboxWritable ?? []).includes(p));
    if (extra.length > 0) refused.push(`sandbox_writable (${extra.join(', ')})`);
    layer = { ...layer, sandboxWritable: undefined };
  }
  if (layer.sandboxNetwork !== undefined) {
    const extra = layer.sandboxNetwork.filter((h) => !(user?.sandboxNetwork ?? []).includes(h));
    if (extra.length > 0) refused.push(`sandbox_network (${extra.join(', ')})`);
    layer = { ...layer, sandboxNetwork: undefined };
  }
  return { layer, refused };
}

const RANK: Record<Level, number> = { allow: 0, confirm: 1, deny: 2 };

/**
 * Policy entries that would loosen the user's settings. They stay in the merged policy, but the
 * floor (the user's own policy) wins wherever it is stricter, so they have no effect; this list
 * only tells the user what the project tried.
 */
function looserPolicy(policy: PolicyLayer, user: PolicySettings): string[] {
  const found: string[] = [];
  const levels = [
    ['read', 'read'],
    ['write', 'write'],
    ['delete', 'delete'],
    ['bash', 'bash'],
    ['readOutside', 'read_outside'],
  ] as const;
  for (const [field, key] of levels) {
    const wanted = policy[field];
    if (wanted !== undefined && RANK[wanted] < RANK[user[field]]) found.push(`policy.${key} = "${wanted}"`);
  }
  const extraAllowed = (policy.bashAllowlist ?? []).filter((cmd) => !user.bashAllowlist.includes(cmd));
  if (extraAllowed.length > 0) found.push(`policy.bash_allowlist (${extraAllowed.join(', ')})`);
  const ownRules = new Set(user.bashRules.map((rule) => JSON.stringify(rule)));
  const extraRules = (policy.bashRules ?? []).filter((rule) => !ownRules.has(JSON.stringify({ words: rule.words, match: rule.match })));
  if (extraRules.length > 0) found.push(`policy.bash_rules (${extraRules.map((rule) => rule.words.join(' ')).join(', ')})`);
  for (const rule of policy.rules ?? []) {
    for (const kind of ['read', 'write', 'delete'] as const) {
      const wanted = rule[kind];
      if (wanted !== undefined && RANK[wanted] < RANK[userLevelAt(user, rule.path, kind)]) {
        found.push(`policy.rules ${kind} = "${wanted}" for ${rule.path}`);
      }
    }
  }
  return found;
}

/** The user's own level for a path: the most specific user rule that covers it, else the global. */
function userLevelAt(user: PolicySettings, path: string, kind: 'read' | 'write' | 'delete'): Level {
  let best: { length: number; level: Level } | undefined;
  for (const rule of user.rules) {
    const level = rule[kind];
    if (level === undefined || !isInside(path, rule.path)) continue;
    if (!best || rule.path.length > best.length) best = { length: rule.path.length, level };
  }
  return best?.level ?? user[kind];
}
