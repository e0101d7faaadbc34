/**
 * The path permission policy: a pure function from (kind, real path, settings) to a tagged
 * decision with its reason. No I/O: the path is resolved before it gets here.
 */
import path from 'node:path';
import type { Level, PathKind, PathRule, PolicySettings } from '../config/types.js';
import type { Decision } from './types.js';
import { isWithinFolded, normalizeName } from './case-fold.js';
import { isExecSensitive } from './exec-sensitive.js';
import { isInstructionFile } from './instruction-files.js';
import { secretFilePattern } from './secret-files.js';
import { expandHome } from './resolve-path.js';

export interface PathContext {
  /** Real path of the project root. */
  readonly projectRoot: string;
  /** The real path lies inside the project. */
  readonly inside: boolean;
  /** A file with several hard links: judged as if it were outside. */
  readonly multiLinked?: boolean;
  /** For `~` in rules; defaults to the user's home. */
  readonly home?: string;
  /** The file system ignores case: rule paths match whatever case the path was typed in. */
  readonly caseInsensitive?: boolean;
}

const RANK: Record<Level, number> = { allow: 0, confirm: 1, deny: 2 };

export function stricterLevel(a: Level, b: Level): Level {
  return RANK[a] >= RANK[b] ? a : b;
}

function rulePath(rule: PathRule, ctx: PathContext): string {
  const expanded = expandHome(rule.path, ctx.home);
  return path.resolve(ctx.projectRoot, expanded);
}

/** The most specific rule that sets this kind; on equal paths the later rule wins (/perm overrides). */
export function findRule(kind: PathKind, realPath: string, rules: readonly PathRule[], ctx: PathContext) {
  let best: { rule: PathRule; at: string; level: Level } | undefined;
  for (const rule of rules) {
    const level = rule[kind];
    if (level === undefined) continue;
    const at = rulePath(rule, ctx);
    // NFC/NFD spellings of one name are one name to a rule (and case too, where the disk folds it).
    if (!isWithinFolded(realPath, at, ctx.caseInsensitive === true)) continue;
    if (best === undefined || normalizeName(at).length >= normalizeName(best.at).length) best = { rule, at, level };
  }
  return best;
}

export function decidePath(kind: PathKind, realPath: string, settings: PolicySettings, ctx: PathContext): Decision {
  const inside = ctx.inside && !ctx.multiLinked;
  const where = ctx.multiLinked ? ' (hard-linked: may be outside the project)' : inside ? '' : ' (outside the project)';
  const rule = findRule(kind, realPath, settings.rules, ctx);
  let decision: Decision;
  if (rule !== undefined) {
    decision = { level: rule.level, reason: `rule ${rule.at} ${kind}=${rule.level}${where}` };
  } else {
    const global = settings[kind];
    decision = { level: global, reason: `default ${kind}=${global}${where}` };
    if (!inside) {
      if (kind === 'read' && RANK[settings.readOutside] > RANK[global]) {
        decision = { level: settings.readOutside, reason: `read_outside=${settings.readOutside}${where}` };
      } else if (kind !== 'read' && global === 'allow') {
        decision = { level: 'confirm', reason: `${kind} outside the project is always asked about${where}` };
      }
    }
  }
  if (kind === 'read') decision = secretFileDefault(decision, rule?.at, realPath, ctx);
  if (!inside && decision.level === 'confirm') decision = { ...decision, alwaysAsk: true };
  if (kind !== 'read' && decision.level !== 'deny' && isExecSensitive(realPath, ctx.projectRoot)) {
    return { level: 'confirm', reason: `${decision.reason}; this file can make other programs run code`, alwaysAsk: true };
  }
  if (kind !== 'read' && decision.level !== 'deny' && isInstructionFile(realPath, ctx.projectRoot)) {
    return { level: 'confirm', reason: `${decision.reason}; this is an instruction file, which agents obey in every later session`, alwaysAsk: true };
  }
  return decision;
}

/**
 * A secret-shaped file (secret-files.ts) is read only after asking, unless a rule opens it: one
 * naming the file itself, or a folder inside the project that holds it. A rule on the project
 * root or above (`~`, `/`) opens folders to the agent, not the key files in them.
 */
function secretFileDefault(decision: Decision, ruleAt: string | undefined, realPath: string, ctx: PathContext): Decision {
  const pattern = secretFilePattern(realPath);
  if (pattern === undefined || RANK[decision.level] >= RANK.confirm) return decision;
  const fold = ctx.caseInsensitive === true;
  const opens =
    ruleAt !== undefined &&
    (isWithinFolded(ruleAt, realPath, fold) ||
      (ctx.inside && isWithinFolded(ruleAt, ctx.projectRoot, fold) && !isWithinFolded(ctx.projectRoot, ruleAt, fold)));
  if (opens) return decision;
  return { level: 'confirm', reason: `${decision.reason}; secret-shaped file (${pattern}): read = "confirm" unless a rule names it` };
}

/**
 * The final decision: with an untrusted project's policy in `policy`, the user's own in `floor`,
 * the stricter of the two whole decisions for this path (so a narrower, looser project rule can't
 * beat a user's deny).
 */
export function decidePathWithFloor(
  kind: PathKind,
  realPath: string,
  policy: PolicySettings,
  floor: PolicySettings | undefined,
  ctx: PathContext,
): Decision {
  const merged = decidePath(kind, realPath, policy, ctx);
  if (floor === undefined) return merged;
  const own = decidePath(kind, realPath, floor, ctx);
  const winner = RANK[own.level] > RANK[merged.level] ? { ...own, reason: `${own.reason} (your config; the project's is looser)` } : merged;
  return merged.alwaysAsk || own.alwaysAsk ? { ...winner, alwaysAsk: winner.level === 'confirm' ? true : winner.alwaysAsk } : winner;
}
