/** /perm and /policy: the permission rules of this session. */
import { homedir } from 'node:os';
import { resolveConfigPath } from '../config/resolve-path.js';
import type { Level, PathKind, PolicySettings } from '../config/types.js';
import type { SlashContext, SlashReply } from './types.js';

const KINDS: readonly PathKind[] = ['read', 'write', 'delete'];
const LEVELS: readonly Level[] = ['allow', 'confirm', 'deny'];

function describePolicy(policy: PolicySettings): string[] {
  const lines = [
    `read=${policy.read} write=${policy.write} delete=${policy.delete} bash=${policy.bash} read_outside=${policy.readOutside}`,
    `bash allowlist: ${policy.bashAllowlist.length ? policy.bashAllowlist.join(', ') : '(none)'}`,
    `bash denylist: ${policy.bashDenylist.length ? policy.bashDenylist.join(', ') : '(built-in only)'}`,
  ];
  for (const r of policy.rules) {
    const levels = KINDS.flatMap((k) => (r[k] ? [`${k}=${r[k]}`] : [])).join(' ');
    lines.push(`rule ${r.path}: ${levels}`);
  }
  return lines;
}

export function permCommand({ session, args }: SlashContext): SlashReply {
  const [path, ...pairs] = args;
  if (!path || !pairs.length) return { kind: 'error', text: 'Usage: /perm PATH kind=level … (kinds read, write, delete; levels allow, confirm, deny)' };
  const projectRoot = session.runtime.config.projectRoot;
  const rule: { path: string } & Partial<Record<PathKind, Level>> = { path: resolveConfigPath(path, projectRoot, process.env['HOME'] || homedir()) };
  for (const pair of pairs) {
    const [kind, level] = pair.split('=') as [PathKind, Level];
    if (!KINDS.includes(kind) || !LEVELS.includes(level)) return { kind: 'error', text: `Not a rule: ${pair}. Write kind=level, e.g. write=allow.` };
    rule[kind] = level;
  }
  session.addPathRule(rule);
  return { kind: 'text', text: `Rule for this session: ${rule.path} ${pairs.join(' ')}` };
}

export async function policyCommand({ session, toolContext }: SlashContext): Promise<SlashReply> {
  const rt = session.runtime;
  const lines = describePolicy(rt.config.policy);
  if (rt.readOnly) lines.unshift('read-only session: no writes, deletes or commands');
  if (rt.preApproved.size) lines.push(`pre-approved for this run (--allow): ${[...rt.preApproved].join(', ')}`);
  if (rt.sessionGrants.size) lines.push(`answered [a]lways this session: ${[...rt.sessionGrants].join(', ')}`);
  const sandbox = toolContext().sandbox;
  if (sandbox) {
    // Shown as it is, not as "still being checked": the probe answers within seconds.
    await sandbox.ready();
    lines.push(...sandbox.describe());
  }
  return { kind: 'panel', panel: 'policy', text: lines.join('\n') };
}
