/**
 * What a content search (grep) must not hand over silently, whatever ripgrep or the walk found:
 * lindwyrm's own secrets, and secret-shaped files no rule opens (read_file asks before reading
 * one). Lines from a git config are redacted like read_file's. The file a search names outright
 * was judged by the gate already and is never left out here.
 */
import path from 'node:path';
import { decideForPath } from '../policy/gate.js';
import { isGitConfig, redactGitConfig } from '../policy/git-config-redact.js';
import { ownSecretReason } from '../policy/own-secrets.js';
import type { ResolvedPath } from '../policy/resolve-path.js';
import { secretFilePattern } from '../policy/secret-files.js';
import type { GrepHit } from './grep-engines.js';
import type { ToolContext } from './types.js';

export interface FilteredHits {
  readonly hits: GrepHit[];
  /** A note for the result, or '' when nothing was left out. */
  readonly note: string;
}

export function filterSearchHits(ctx: ToolContext, base: ResolvedPath, hits: GrepHit[]): FilteredHits {
  const fold = base.caseInsensitive === true;
  const verdicts = new Map<string, 'keep' | 'own' | 'secret'>();
  const verdict = (file: string): 'keep' | 'own' | 'secret' => {
    let v = verdicts.get(file);
    if (v !== undefined) return v;
    const abs = file === '' ? base.realPath : path.join(base.realPath, file);
    v = 'keep';
    if (ownSecretReason(abs, ctx.config, fold) !== undefined) v = 'own';
    else if (file !== '' && secretFilePattern(abs) !== undefined) {
      const resolved: ResolvedPath = { ...base, requested: abs, realPath: abs, isDirectory: false, isSymlink: false, multiLinked: false };
      if (decideForPath(ctx, 'read', resolved).level !== 'allow') v = 'secret';
    }
    verdicts.set(file, v);
    return v;
  };
  const kept: GrepHit[] = [];
  for (const hit of hits) {
    if (verdict(hit.file) !== 'keep') continue;
    const abs = hit.file === '' ? base.realPath : path.join(base.realPath, hit.file);
    kept.push(isGitConfig(abs) ? { ...hit, text: redactGitConfig(hit.text).text } : hit);
  }
  const left = (kind: 'own' | 'secret'): number => [...verdicts.values()].filter((v) => v === kind).length;
  const notes: string[] = [];
  if (left('secret') > 0) notes.push(`[${left('secret')} secret-shaped files left out (.env, keys, credentials); read_file asks before reading one]`);
  if (left('own') > 0) notes.push(`[${left('own')} files of lindwyrm's own keys and stores left out; tools never read them]`);
  return { hits: kept, note: notes.map((n) => `\n${n}`).join('') };
}
