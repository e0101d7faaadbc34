/** Project-wide facts name resolution needs: tsconfig `paths`, go.mod module paths. */
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { ProjectFacts } from './types.js';

/** tsconfig.json allows comments and trailing commas; strip them before JSON.parse. */
function parseJsonc(text: string): unknown {
  const noComments = text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m, str: string | undefined) => str ?? '');
  return JSON.parse(noComments.replace(/,(\s*[}\]])/g, '$1'));
}

async function tsPaths(root: string): Promise<ProjectFacts['tsPaths']> {
  for (const name of ['tsconfig.json', 'jsconfig.json']) {
    try {
      const config = parseJsonc(await readFile(join(root, name), 'utf8')) as { compilerOptions?: { baseUrl?: unknown; paths?: unknown } };
      const opts = config.compilerOptions ?? {};
      const paths: Record<string, string[]> = {};
      if (opts.paths && typeof opts.paths === 'object') {
        for (const [k, v] of Object.entries(opts.paths)) if (Array.isArray(v)) paths[k] = v.filter((x): x is string => typeof x === 'string');
      }
      const baseUrl = typeof opts.baseUrl === 'string' ? posix.normalize(opts.baseUrl).replace(/^\.\/?$/, '') : '';
      if (Object.keys(paths).length === 0 && !baseUrl) return undefined;
      return { baseUrl, paths };
    } catch {
      continue; // no such file, or not JSON: the next candidate may say
    }
  }
  return undefined;
}

async function goModules(root: string, files: readonly string[]): Promise<ProjectFacts['goModules']> {
  const mods: Record<string, string> = {};
  for (const file of files) {
    if (posix.basename(file) !== 'go.mod') continue;
    try {
      const m = /^module\s+(\S+)/m.exec(await readFile(join(root, file), 'utf8'));
      if (m) mods[posix.dirname(file) === '.' ? '' : posix.dirname(file)] = m[1]!;
    } catch {
      continue; // no go.mod here: this folder names no module
    }
  }
  return Object.keys(mods).length > 0 ? mods : undefined;
}

export async function readProjectFacts(root: string, goModFiles: readonly string[]): Promise<ProjectFacts> {
  const [paths, gomods] = await Promise.all([tsPaths(root), goModules(root, goModFiles)]);
  return { ...(paths ? { tsPaths: paths } : {}), ...(gomods ? { goModules: gomods } : {}) };
}
