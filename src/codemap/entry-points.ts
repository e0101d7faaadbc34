/** Entry-point files: package.json main/bin/exports (mapped back to sources) and each language's usual mains. */
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';

const CONVENTIONAL = /(^|\/)(main\.go|__main__\.py|main\.py|manage\.py|src\/main\.rs|src\/lib\.rs|Main\.java|index\.[cm]?[jt]sx?|cli\.[cm]?[jt]s)$/;

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collectStrings(v, out);
}

/** './dist/cli.js' usually comes from 'src/cli.ts': try the file itself, then source twins. */
function sourceTwins(target: string): string[] {
  const clean = posix.normalize(target).replace(/^\.\//, '');
  const stem = clean.replace(/\.[cm]?js$/, '');
  const stems = [stem, stem.replace(/^(dist|build|lib|out)\//, 'src/'), stem.replace(/^(dist|build|lib|out)\//, '')];
  const out = [clean];
  for (const s of stems) for (const ext of ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs']) out.push(s + ext);
  return out;
}

export async function findEntryFiles(root: string, files: ReadonlySet<string>): Promise<Set<string>> {
  const entries = new Set<string>();
  for (const f of files) if (CONVENTIONAL.test(f) && !f.includes('/test')) entries.add(f);
  try {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    const targets: string[] = [];
    for (const key of ['main', 'module', 'bin', 'exports']) collectStrings(pkg[key], targets);
    for (const t of targets) {
      const hit = sourceTwins(t).find((c) => files.has(c));
      if (hit) entries.add(hit);
    }
  } catch {
    // No package.json, or not JSON: the conventional names above are all there is.
  }
  return entries;
}
