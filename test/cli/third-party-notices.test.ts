/**
 * The bundled packages' licence notices ship in the package: dist/THIRD-PARTY-LICENSES.txt,
 * written by the build (scripts/third-party.ts), must name every package whose code is in dist/
 * (found here independently, from the module comments esbuild leaves in the chunks) and every
 * vendored one, each with its licence text. Needs a build (npm test builds first).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { strayImports } from '../../scripts/third-party.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const notices = (): string => readFileSync(join(dist, 'THIRD-PARTY-LICENSES.txt'), 'utf8');

/** name@version of each package a chunk's `// node_modules/NAME/file.js` comments point into. */
function packagesInChunks(): Map<string, { name: string; version: string }> {
  const found = new Map<string, { name: string; version: string }>();
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.js'))) {
    for (const m of readFileSync(join(dist, file), 'utf8').matchAll(/^\/\/ (node_modules\/.+)$/gm)) {
      const path = m[1] ?? '';
      const cut = path.lastIndexOf('node_modules/') + 'node_modules/'.length;
      const rest = path.slice(cut).split('/');
      const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? '');
      const { version } = JSON.parse(readFileSync(join(root, path.slice(0, cut), name, 'package.json'), 'utf8')) as { version: string };
      found.set(`${name}@${version}`, { name, version });
    }
  }
  return found;
}

function sections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of text.split(/^={78}\n/m).slice(1)) {
    const header = /^(\S+) (\S+) — /.exec(block);
    if (header) out.set(`${header[1]}@${header[2]}`, block);
  }
  return out;
}

describe('third-party licence notices', () => {
  it('names every package bundled into dist/, each with its licence text', () => {
    const bundled = packagesInChunks();
    // The view stack and the command line parser are bundled: a scan finding nothing proves nothing.
    for (const name of ['ink', 'react', 'ink-text-input', 'yargs', 'diff', 'smol-toml', 'picomatch', 'ignore']) {
      expect([...bundled.values()].map((p) => p.name)).toContain(name);
    }
    const text = notices();
    const bySection = sections(text);
    const missing = [...bundled.keys()].filter((key) => !bySection.has(key));
    expect(missing).toEqual([]);
    for (const [key, { name, version }] of bundled) {
      expect(text).toContain(`\n  ${name} ${version} (`);
      const body = bySection.get(key) ?? '';
      // A licence, not just a name: its text follows the header.
      expect(body, key).toMatch(/\n--- .+\n\n[\s\S]*(permission|licen[cs]e|copyright)/i);
    }
  });

  it('carries TypeScript (Apache-2.0) and the tree-sitter grammars (MIT) copied into dist/vendor', () => {
    const bySection = sections(notices());
    const ts = [...bySection].find(([key]) => key.startsWith('typescript@'));
    expect(ts?.[1]).toContain('dist/vendor/typescript');
    expect(ts?.[1]).toContain('Apache License');
    expect(ts?.[1]).toContain('ThirdPartyNoticeText.txt');
    const grammars = [...bySection].find(([key]) => key.startsWith('@vscode/tree-sitter-wasm@'));
    expect(grammars?.[1]).toContain('dist/vendor/tree-sitter');
    expect(grammars?.[1]).toMatch(/MIT License/);
  });

  it('ships only the grammars lindwyrm loads, and TypeScript without its CLI and translations', () => {
    const grammars = readdirSync(join(dist, 'vendor', 'tree-sitter')).filter((f) => /^tree-sitter-.+\.wasm$/.test(f)).sort();
    expect(grammars).toEqual(['bash', 'c-sharp', 'cpp', 'go', 'java', 'php', 'python', 'ruby', 'rust'].map((g) => `tree-sitter-${g}.wasm`));
    const ts = readdirSync(join(dist, 'vendor', 'typescript'));
    expect(ts).toContain('typescript.js');
    expect(ts).toContain('lib.es5.d.ts');
    expect(ts).toContain('lib.dom.d.ts');
    expect(ts.filter((f) => !/^(typescript\.js|lib\..+\.d\.ts|LICENSE\.txt|ThirdPartyNoticeText\.txt)$/.test(f))).toEqual([]);
  });
});

describe('the build refuses an import of a package that is not installed', () => {
  const meta = (paths: string[]): Metafile => ({
    inputs: {},
    outputs: { 'dist/x.js': { bytes: 1, inputs: {}, imports: paths.map((path) => ({ path, kind: 'import-statement' as const, external: true })), exports: [] } },
  });

  it('names it, and lets builtins, relative files and runtime dependencies through', () => {
    expect(strayImports(meta(['node:fs', 'path', './chunk-A.js', 'undici', 'undici/lib/api/index.js']), ['undici'], [])).toEqual([]);
    expect(strayImports(meta(['typescript', '@vscode/tree-sitter-wasm', 'undici']), ['undici'], [])).toEqual(['@vscode/tree-sitter-wasm', 'typescript']);
    expect(strayImports(meta(['react-devtools-core']), ['undici'], ['react-devtools-core'])).toEqual([]);
  });
});

describe('README dependency table', () => {
  it('has a row for every package the build bundles or vendors from package.json', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const { devDependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const shipped = [...sections(notices()).keys()].map((key) => key.slice(0, key.lastIndexOf('@'))).filter((name) => name in devDependencies);
    expect(shipped.length).toBeGreaterThan(5);
    const missing = shipped.filter((name) => !new RegExp(`^\\|\\s*\`?${name.replace(/[/.]/g, '\\$&')}\`?\\s*\\|`, 'm').test(readme));
    expect(missing, 'add a row "| name | purpose | ... |" to the README for each').toEqual([]);
  });
});
