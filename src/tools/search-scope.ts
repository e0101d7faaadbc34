/** The common start of glob and grep: where to search, whether that may be read, what to leave out. */
import { isWithinFolded, onDiskSpellings, withRootSpelling } from '../policy/case-fold.js';
import { realRulePath } from '../policy/resolve-path.js';
import type { ToolResult, ToolContext } from './types.js';
import type { Args } from './args.js';
import { stringField } from './define-tool.js';
import { openGated, type PathAccess } from './path-access.js';

export interface SearchScope {
  readonly access: PathAccess;
  /** Real absolute path searched. */
  readonly base: string;
  /** How results are prefixed: '' for the project root, 'src/' below it, absolute outside. */
  readonly prefix: string;
  /** Paths below the base that a rule keeps from being read silently. */
  readonly excluded: readonly string[];
}

/**
 * Rule paths below `base` whose read level is not allow: searched content must not leak them.
 * On a case-insensitive file system a rule typed `Secrets` covers `secrets`, so it is matched
 * folded and handed to the walk (and to ripgrep) in the spelling that is on disk.
 */
export function policyExclusions(ctx: ToolContext, base: string, caseInsensitive = false): string[] {
  const rules = [...ctx.config.policy.rules, ...(ctx.config.policyFloor?.rules ?? [])];
  const out = new Set<string>();
  for (const rule of rules) {
    if (rule.read === undefined || rule.read === 'allow') continue;
    const at = realRulePath(rule.path, ctx.projectRoot);
    // NFC and NFD spellings are one name to a rule; where the disk folds case, so is the case.
    if (!isWithinFolded(at, base, caseInsensitive) || isWithinFolded(base, at, caseInsensitive)) continue;
    const written = caseInsensitive ? withRootSpelling(at, base) : at;
    for (const spelled of onDiskSpellings(written, base, caseInsensitive)) out.add(spelled);
  }
  return [...out];
}

export async function openSearch(
  ctx: ToolContext,
  tool: string,
  typed: string | undefined,
  what: string,
): Promise<SearchScope | ToolResult> {
  const opened = await openGated(ctx, tool, typed ?? '.', { kind: 'read', summary: (shown) => `${what} in ${shown}`, want: 'any' });
  if (!opened.ok) return opened.result;
  const { access, shown } = opened;
  const base = access.resolved.realPath;
  const prefix = shown === '.' ? '' : access.resolved.isDirectory ? `${shown}/` : shown;
  return { access, base, prefix, excluded: policyExclusions(ctx, base, access.resolved.caseInsensitive === true) };
}

export function isScope(value: SearchScope | ToolResult): value is SearchScope {
  return 'base' in value;
}

export function cappedNote(shown: number, total: number, noun: string, hint: string): string {
  if (total <= shown) return '';
  return `\n[${total - shown} more ${noun} not shown (${total} in all); ${hint}]`;
}

/** What glob and grep declare alike: they read, their results may be offloaded, their title and I/O subject. */
export const SEARCH_TOOL = {
  kind: 'read',
  bulk: true,
  title: searchTitle,
  subject: (args: { readonly path?: string | undefined }) => args.path ?? '.',
} as const;

/** glob's and grep's call title: '*.ts in lib' (the pattern, and where when given). */
export function searchTitle(input: Args): string | undefined {
  const pattern = stringField(input, 'pattern');
  const where = stringField(input, 'path');
  return pattern === undefined ? where : where === undefined ? pattern : `${pattern} in ${where}`;
}
