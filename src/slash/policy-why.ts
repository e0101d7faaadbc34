/**
 * /policy why PATH|COMMAND: what the policy would decide now, and which rule decides it — the
 * default level, a path rule, read_outside, a file that is always asked about, a denylist or
 * allowlist entry, a grant or saved rule, an option (flag) a grant does not cover, --allow, or
 * --read-only. It runs the same functions a tool call does, so the answer is the one a call gets.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { PathKind } from '../config/types.js';
import { grantText, judgeSegments, type SourcedGrant } from '../policy/bash-grants.js';
import { escapeFileName, escapeForDisplay } from '../policy/escape.js';
import { decideForPath } from '../policy/gate.js';
import { resolvePath } from '../policy/resolve-path.js';
import { decideCommand } from '../tools/bash.js';
import type { ToolContext } from '../tools/types.js';

const PATH_KINDS: readonly PathKind[] = ['read', 'write', 'delete'];

/** The kind of rule a path decision's reason names. */
function pathRuleKind(reason: string): string {
  if (reason.includes('this file can make other programs run code')) return 'always asked (a file that makes other programs run code)';
  if (reason.startsWith('rule ')) return 'path rule';
  if (reason.startsWith('read_outside')) return 'read_outside';
  if (reason.includes('outside the project is always asked')) return 'outside the project (always asked)';
  if (reason.startsWith('default ')) return 'default';
  return 'policy';
}

export async function explainPath(typed: string, ctx: ToolContext): Promise<string[]> {
  const resolved = await resolvePath(typed, ctx.projectRoot);
  const where = resolved.multiLinked ? 'inside the project, but hard-linked (judged as outside)' : resolved.inside ? 'inside the project' : 'outside the project';
  const lines = [`${escapeFileName(resolved.realPath)} (${where})`];
  for (const kind of PATH_KINDS) {
    const decision = decideForPath(ctx, kind, resolved);
    const reason = escapeForDisplay(decision.reason);
    const inside = resolved.inside && !resolved.multiLinked;
    if (ctx.readOnly && kind !== 'read') {
      lines.push(`  ${kind}: deny — read-only session (--read-only)`);
    } else if (decision.level === 'confirm' && !decision.alwaysAsk && inside && ctx.preApproved.has(kind)) {
      lines.push(`  ${kind}: allow — --allow ${kind} (over ${pathRuleKind(decision.reason)}: ${reason})`);
    } else if (decision.level === 'confirm' && !decision.alwaysAsk && inside && ctx.sessionGrants.has(kind)) {
      lines.push(`  ${kind}: allow — grant: [a]lways ${kind} this session (over ${pathRuleKind(decision.reason)}: ${reason})`);
    } else {
      const asked = decision.level === 'confirm' ? 'confirm (asked)' : decision.level;
      const note = decision.level === 'confirm' && (decision.alwaysAsk || !inside) ? '; [a]lways cannot cover it' : '';
      lines.push(`  ${kind}: ${asked} — ${pathRuleKind(decision.reason)}: ${reason}${note}`);
    }
  }
  return lines;
}

function sourceLabel(by: SourcedGrant | { readonly source: 'allowlist'; readonly entry: string }): string {
  if ('entry' in by) return `allowlist entry ${by.entry}`;
  return by.source === 'grant' ? `grant ${grantText(by)} (this session)` : `saved rule ${grantText(by)} (your config)`;
}

export async function explainCommand(command: string, ctx: ToolContext): Promise<string[]> {
  const shown = escapeForDisplay(command);
  const head = `$ ${shown.replaceAll('\n', '\n  ')}`;
  if (ctx.readOnly) return [head, '  deny — read-only session (--read-only): no command runs'];
  const { decision, proposal } = await decideCommand(command, ctx);
  const reason = escapeForDisplay(decision.reason);
  if (decision.level === 'deny') {
    return [head, reason.startsWith('denylist') ? `  deny — denylist entry ${reason.slice('denylist: '.length)} (judged before any grant)` : `  deny — ${reason}`];
  }
  if (decision.level === 'allow' && decision.allowlisted === undefined) return [head, `  allow — ${reason}`];
  if (decision.level === 'allow' && decision.reason.startsWith('allowlist: ')) return [head, `  allow — allowlist entry ${reason.slice('allowlist: '.length)}`];
  if (ctx.preApproved.has('bash')) return [head, '  allow — --allow bash'];
  if (ctx.sessionGrants.has('bash')) return [head, '  allow — grant: [e]very command this session'];
  // Per part: covered by what, or why not.
  const covered = decision.level === 'allow';
  // The bash level itself ('bash=confirm') is the default rule for a command nothing else covers.
  const first = reason.split(';')[0] ?? reason;
  const rule = first.startsWith('bash=') ? `default: ${first}` : first;
  const lines = [head, covered ? '  allow — every part is covered:' : `  confirm (asked) — ${rule}; per part:`];
  lines.push(...perPart(command, ctx));
  if (!covered && decision.reason.includes(', but ')) lines.push(`  asked because ${reason.slice(reason.indexOf(', but ') + 6)}`);
  if (!covered && proposal !== undefined) {
    const grants = proposal.grants.map((g) => `${grantText(g)}${g.match === 'exact' ? ' (exactly)' : ''}`);
    lines.push(grants.length > 0 ? `  [a]lways would grant: ${escapeForDisplay(grants.join(', '))}` : '  [a]lways would grant nothing beyond this once');
  }
  return lines;
}

function perPart(command: string, ctx: ToolContext): string[] {
  const own = ctx.config.policyFloor ?? ctx.config.policy;
  const grants: SourcedGrant[] = [
    ...ctx.sessionGrants.bash().map((g): SourcedGrant => ({ ...g, source: 'grant' })),
    ...own.bashRules.map((r): SourcedGrant => ({ ...r, source: 'saved rule' })),
  ];
  return judgeParts(command, grants, own.bashAllowlist);
}

function judgeParts(command: string, grants: readonly SourcedGrant[], allowlist: readonly string[]): string[] {
  const judged = judgeSegments(command, grants, allowlist);
  if (judged.problem !== undefined) return [`    cannot be read part by part: ${escapeForDisplay(judged.problem)}`];
  return judged.segments.map((s) => {
    const text = escapeForDisplay(s.text.replace(/\s*\n\s*/g, ' ⏎ '));
    if (s.by !== undefined) return `    ${text}: ${escapeForDisplay(sourceLabel(s.by))}`;
    const why = s.why ?? 'not covered';
    const label = why.includes(' does not cover it: ') ? 'flag' : 'not covered';
    return `    ${text}: ${label} — ${escapeForDisplay(why)}`;
  });
}

/** Whether `/policy why X` asks about a path: it says so, names a file or folder, or looks like one. */
export async function looksLikePath(text: string, root: string): Promise<boolean> {
  if (/\s/.test(text)) return false;
  if (text.startsWith('/') || text.startsWith('./') || text.startsWith('../') || text.startsWith('~')) return true;
  try {
    await stat(path.resolve(root, text));
    return true;
  } catch {
    return false; // no such file: a command
  }
}
