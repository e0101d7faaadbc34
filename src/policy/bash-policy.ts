/**
 * The bash policy: one global level, an always-on denylist and an allowlist of harmless commands.
 * Pure. The denylist is a backstop, not a jail ($(printf cu)rl gets past any list); the prompt is
 * the real protection, so anything the allowlist cannot judge exactly is asked about.
 */
import type { PolicySettings } from '../config/types.js';
import type { Decision } from './types.js';
import { CONTROL, SHELL_META, WRAPPERS, denylistWords } from './bash-words.js';
import { invocationMatches, parseEntry } from './denylist-match.js';
import { unsafeArgument } from './program-options.js';

export interface BashDecision extends Decision {
  /** The allowlist entry that matched, when one did. */
  readonly allowlisted?: string;
}

function splitWords(text: string): string[] {
  return text.split(/[ \t]+/).filter((w) => w !== '');
}

/**
 * The first denylist entry the command matches: its words in a row anywhere in the command, or
 * (denylist-match.ts) an invocation of its program with its options in any spelling.
 */
export function matchDenylist(command: string, denylist: readonly string[]): string | undefined {
  const words = denylistWords(command);
  for (const entry of denylist) {
    const wanted = denylistWords(entry);
    if (wanted.length === 0) continue;
    for (let i = 0; i + wanted.length <= words.length; i++) {
      if (wanted.every((w, j) => words[i + j] === w)) return entry;
    }
    const parsed = parseEntry(entry);
    if (parsed !== undefined && invocationMatches(command, parsed)) return entry;
  }
  return undefined;
}

/** Why a command cannot be matched against the allowlist, or undefined when it can. */
function notPlain(command: string): string | undefined {
  if (SHELL_META.test(command)) return 'shell syntax (operators, quotes, expansions or a newline)';
  if (CONTROL.test(command)) return 'control characters';
  return undefined;
}

export function matchAllowlist(command: string, allowlist: readonly string[]): string | undefined {
  if (notPlain(command) !== undefined) return undefined;
  const words = splitWords(command.trim());
  if (words.length === 0) return undefined;
  for (const entry of allowlist) {
    const wanted = splitWords(entry.trim());
    const program = wanted[0];
    if (program === undefined || WRAPPERS.has(program) || program.includes('=')) continue;
    if (notPlain(entry) !== undefined) continue;
    if (wanted.length > words.length) continue;
    if (!wanted.every((w, i) => words[i] === w)) continue;
    if (unsafeArgument(words, wanted.length) !== undefined) continue;
    return entry;
  }
  return undefined;
}

export function decideBash(command: string, settings: PolicySettings): BashDecision {
  const denied = matchDenylist(command, settings.bashDenylist);
  if (denied !== undefined) return { level: 'deny', reason: `denylist: ${denied}` };
  if (settings.bash === 'deny') return { level: 'deny', reason: 'bash=deny' };
  if (settings.bash === 'allow') return { level: 'allow', reason: 'bash=allow' };
  const entry = matchAllowlist(command, settings.bashAllowlist);
  if (entry !== undefined) return { level: 'allow', reason: `allowlist: ${entry}`, allowlisted: entry };
  const why = notPlain(command);
  const reason = why !== undefined && settings.bashAllowlist.length > 0 ? `bash=confirm (${why})` : 'bash=confirm';
  return { level: 'confirm', reason };
}

/** With an untrusted project's policy, the user's own bash settings are a floor. */
export function decideBashWithFloor(command: string, policy: PolicySettings, floor?: PolicySettings): BashDecision {
  const merged = decideBash(command, policy);
  if (floor === undefined) return merged;
  const own = decideBash(command, floor);
  const rank = { allow: 0, confirm: 1, deny: 2 } as const;
  return rank[own.level] > rank[merged.level] ? { ...own, reason: `${own.reason} (your config)` } : merged;
}
