/**
 * The paths @ can complete to: the project's files and folders, listed the way glob sees them
 * (.gitignore and .ignore honoured, vendored folders skipped, symlinks not followed), without any
 * path the read policy would deny or ask about and without what the sandbox masks. Listed once,
 * in slices, so the screen keeps repainting while a big tree is walked.
 */
import { homedir } from 'node:os';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/types.js';
import { decidePathWithFloor } from '../policy/path-policy.js';
import { isWithin } from '../policy/resolve-path.js';
import { maskedPaths } from '../sandbox/masked-paths.js';
import { ignoreError } from '../diagnostics/ignore-error.js';
import { walkFiles } from '../tools/walk-files.js';
import { escapeFileName } from '../policy/escape.js';

/** Enough for any project one would pick a file from by name; a bigger tree is cut, not walked whole. */
export const MAX_MENTION_PATHS = 50_000;

export async function listMentionPaths(config: Config, env: Readonly<Record<string, string | undefined>> = process.env): Promise<string[]> {
  const root = await realpath(config.projectRoot);
  const home = env['HOME'] || homedir();
  const masked = ((await maskedPaths(config, env, home).catch(ignoreError('list the sandbox masks for @ paths'))) ?? []).map((m) => m.path);
  const ctx = { projectRoot: root, inside: true, home };
  const allowed = (abs: string): boolean =>
    !masked.some((m) => abs === m || isWithin(abs, m)) && decidePathWithFloor('read', abs, config.policy, config.policyFloor, ctx).level === 'allow';
  const files: string[] = [];
  const folders = new Set<string>();
  await walkFiles({
    root,
    base: root,
    excluded: masked.filter((m) => isWithin(m, root)),
    onFile: (abs, rel) => {
      if (!allowed(abs)) return;
      // A name with control characters comes from an untrusted tree: shown escaped, never raw.
      if (escapeFileName(rel) !== rel) return;
      files.push(rel);
      for (let dir = path.dirname(rel); dir !== '.' && !folders.has(dir); dir = path.dirname(dir)) folders.add(dir);
      return files.length < MAX_MENTION_PATHS;
    },
  });
  return [...[...folders].map((d) => `${d}/`), ...files].sort();
}
