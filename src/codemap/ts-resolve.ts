/** Resolves TS/JS import sources to project files: relative paths and tsconfig `paths`, as tsc would. */
import { posix } from 'node:path';
import type { ImportResolveContext } from './types.js';

const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** NodeNext code imports './x.js' for the source file './x.ts'. */
const SOURCE_FOR_OUTPUT: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};

function candidates(base: string): string[] {
  const out = [base];
  const ext = posix.extname(base);
  for (const alt of SOURCE_FOR_OUTPUT[ext] ?? []) out.push(base.slice(0, -ext.length) + alt);
  for (const e of EXTENSIONS) out.push(base + e);
  for (const e of EXTENSIONS) out.push(`${base}/index${e}`);
  return out;
}

function firstExisting(base: string, files: ReadonlySet<string>): string | undefined {
  return candidates(posix.normalize(base)).find((c) => files.has(c));
}

function matchPathPattern(pattern: string, source: string): string | undefined {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === source ? '' : undefined;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  if (!source.startsWith(prefix) || !source.endsWith(suffix) || source.length < prefix.length + suffix.length) return undefined;
  return source.slice(prefix.length, source.length - suffix.length);
}

export function resolveTsImport(fromFile: string, source: string, ctx: ImportResolveContext): readonly string[] {
  if (source.startsWith('.')) {
    const hit = firstExisting(posix.join(posix.dirname(fromFile), source), ctx.files);
    return hit ? [hit] : [];
  }
  const tsPaths = ctx.facts.tsPaths;
  if (!tsPaths) return [];
  // The longest matching prefix wins, as in tsc.
  const patterns = Object.keys(tsPaths.paths).sort((a, b) => b.indexOf('*') - a.indexOf('*') || b.length - a.length);
  for (const pattern of patterns) {
    const star = matchPathPattern(pattern, source);
    if (star === undefined) continue;
    for (const target of tsPaths.paths[pattern] ?? []) {
      const hit = firstExisting(posix.join(tsPaths.baseUrl, target.replace('*', star)), ctx.files);
      if (hit) return [hit];
    }
  }
  const viaBase = firstExisting(posix.join(tsPaths.baseUrl, source), ctx.files);
  return viaBase ? [viaBase] : [];
}
