/** /perm and /policy: the permission rules of this session. */
import { homedir } from 'node:os';
import { resolveConfigPath } from '../config/resolve-path.js';
import type { Level, PathKind, PolicySettings } from '../config/types.js';
import { INSTRUCTION_FILE_PATTERNS } from '../policy/instruction-files.js';
import { SECRET_FILE_PATTERNS } from '../policy/secret-files.js';
import type { SlashContext, SlashReply } from './types.js';
import { describeGrant } from '../policy/session-grants.js';
import { escapeForDisplay } from '../policy/escape.js';
import { grantText } from '../policy/bash-grants.js';
import { explainCommand, explainPath, looksLikePath } from './policy-why.js';

const KINDS: readonly PathKind[] = ['read', 'write', 'delete'];
const LEVELS: readonly Level[] = ['allow', 'confirm', 'deny'];

function describePolicy(policy: PolicySettings): string[] {
  const lines = [
    `read=${policy.read} write=${policy.write} delete=${policy.delete} bash=${policy.bash} read_outside=${policy.readOutside}`,
    `bash allowlist: ${policy.bashAllowlist.length ? policy.bashAllowlist.join(', ') : '(none)'}`,
    `bash denylist: ${policy.bashDenylist.length ? policy.bashDenylist.join(', ') : '(built-in only)'}`,
    `saved bash rules: ${policy.bashRules.length ? policy.bashRules.map((r) => `${grantText(r)}${r.match === 'exact' ? ' (exactly)' : ''}`).join(', ') : '(none)'}`,
  ];
  for (const r of policy.rules) {
    const levels = KINDS.flatMap((k) => (r[k] ? [`${k}=${r[k]}`] : [])).join(' ');
    lines.push(`rule ${r.path}: ${levels}`);
  }
  return lines;
}

/** The defaults no rule spells out, so the user can see what a rule would have to override. */
function describeDefaults(): string[] {
  return [
    `secret-shaped files (read=confirm unless a rule names them): ${SECRET_FILE_PATTERNS.join(', ')}`,
    `instruction files (writes always asked): ${INSTRUCTION_FILE_PATTERNS.join(', ')}`,
    "never open to tools: preset key files, key material in lindwyrm's config folder, its data folder (sessions, offloads, tokens)",
  ];
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

export async function policyCommand(ctx: SlashContext): Promise<SlashReply> {
  const { session, args, toolContext } = ctx;
  const [sub, ...more] = args;
  if (sub === 'revoke') return revoke(session, more[0]);
  if (sub === 'why') return why(ctx);
  if (sub !== undefined) return { kind: 'error', text: `Unknown: /policy ${sub}. Use /policy, /policy why PATH|COMMAND, or /policy revoke N.` };
  const rt = session.runtime;
  const lines = describePolicy(rt.config.policy);
  if (rt.readOnly) lines.unshift('read-only session: no writes, deletes or commands');
  if (rt.preApproved.size) lines.push(`pre-approved for this run (--allow): ${[...rt.preApproved].join(', ')}`);
  const grants = rt.sessionGrants.list();
  if (grants.length > 0) {
    lines.push('granted this session ([a]lways / [e]very; /policy revoke N takes one back):');
    grants.forEach((entry, i) => lines.push(`  ${i + 1}. ${escapeForDisplay(describeGrant(entry))}`));
  } else {
    lines.push('granted this session: nothing');
  }
  const sandbox = toolContext().sandbox;
  if (sandbox) {
    // Shown as it is, not as "still being checked": the probe answers within seconds.
    await sandbox.ready();
    lines.push(...sandbox.describe());
  }
  // What this session changed comes first; the long default lists last.
  lines.push(...describeDefaults());
  return { kind: 'panel', panel: 'policy', text: lines.join('\n') };
}

function revoke(session: SlashContext['session'], which: string | undefined): SlashReply {
  const count = session.runtime.sessionGrants.size;
  if (which === 'all') {
    for (let i = count - 1; i >= 0; i--) session.revokeGrant(i);
    return { kind: 'text', text: count === 0 ? 'Nothing was granted this session.' : `Revoked all ${count} grants: those commands and files are asked about again.` };
  }
  const n = which !== undefined && /^\d+$/.test(which) ? Number(which) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > count) {
    return { kind: 'error', text: count === 0 ? 'Nothing was granted this session.' : `Usage: /policy revoke N (1 to ${count}, as /policy numbers them) or /policy revoke all.` };
  }
  const entry = session.revokeGrant(n - 1);
  return { kind: 'text', text: `Revoked ${escapeForDisplay(entry ? describeGrant(entry) : String(n))}: asked about again from now on.` };
}

async function why(ctx: SlashContext): Promise<SlashReply> {
  let text = ctx.rest.replace(/^why\b/, '').trim();
  let kind: 'path' | 'command' | undefined;
  const explicit = /^(path|command)\s+/.exec(text);
  if (explicit) {
    kind = explicit[1] as 'path' | 'command';
    text = text.slice(explicit[0].length).trim();
  }
  if (text === '') return { kind: 'error', text: 'Usage: /policy why PATH or /policy why COMMAND (or /policy why path X, /policy why command X).' };
  const tool = ctx.toolContext();
  kind ??= (await looksLikePath(text, tool.projectRoot)) ? 'path' : 'command';
  const lines = kind === 'path' ? await explainPath(text, tool) : await explainCommand(text, tool);
  return { kind: 'panel', panel: 'policy', text: lines.join('\n') };
}
