/** What `npm pack` ships, and that the README accounts for every runtime dependency. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function packedFiles(): Promise<string[]> {
  return new Promise((done, fail) => {
    execFile('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root }, (error, stdout) => {
      if (error) return fail(error);
      const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
      done((pack?.files ?? []).map((f) => f.path));
    });
  });
}

interface Manifest {
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  version: string;
}
const manifest = async (path: string) => JSON.parse(await readFile(join(root, path), 'utf8')) as Manifest;

describe('npm pack', () => {
  it('ships only what a user needs: dist, README, LICENSE, package.json, examples, docs', async () => {
    const files = await packedFiles();
    // dist/vendor holds the parts of TypeScript and the tree-sitter grammars lindwyrm loads
    // (scripts/third-party.ts), dist/THIRD-PARTY-LICENSES.txt the bundled packages' notices.
    const vendored = /^dist\/vendor\/(package\.json|typescript\/(typescript\.js|lib\.[\w.]+\.d\.ts|LICENSE\.txt|ThirdPartyNoticeText\.txt)|tree-sitter\/(tree-sitter(-[\w-]+)?\.wasm|tree-sitter\.js|LICENSE|cgmanifest\.json))$/;
    const stray = files.filter((f) => !vendored.test(f) && !/^(dist\/[^/]+\.js|dist\/THIRD-PARTY-LICENSES\.txt|examples\/.+|docs\/.+|README\.md|LICENSE|package\.json)$/.test(f));
    expect(stray).toEqual([]);
    for (const required of ['README.md', 'LICENSE', 'package.json', 'examples/lindwyrm.example.toml']) expect(files).toContain(required);
    // A build is needed for dist/; when there is one, the entry point must be in the package.
    if (existsSync(join(root, 'dist', 'cli.js'))) {
      for (const built of ['dist/cli.js', 'dist/THIRD-PARTY-LICENSES.txt', 'dist/vendor/typescript/typescript.js', 'dist/vendor/tree-sitter/tree-sitter.wasm']) {
        expect(files).toContain(built);
      }
    }
    // npm reads every file it would pack, dist/vendor's ~30 MB included: slow on a busy machine.
  }, 120_000);

  it('points both commands at the built entry point', async () => {
    const pkg = await manifest('package.json');
    expect(pkg.bin).toEqual({ lwyrm: 'dist/cli.js', lindwyrm: 'dist/cli.js' });
  });

  it('has an alias package lwyrm exposing the same commands through lindwyrm', async () => {
    const alias = await manifest('packaging/lwyrm/package.json');
    expect(Object.keys(alias.bin).sort()).toEqual(['lindwyrm', 'lwyrm']);
    expect(Object.keys(alias.dependencies)).toEqual(['lindwyrm']);
    const shim = await readFile(join(root, 'packaging', 'lwyrm', alias.bin['lwyrm'] ?? ''), 'utf8');
    expect(shim).toMatch(/^#!\/usr\/bin\/env node/);
    expect(shim).toContain("import 'lindwyrm/dist/cli.js'");
  });
});

describe('README dependency table', () => {
  it('has a row for every runtime dependency', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const { dependencies } = await manifest('package.json');
    const missing = Object.keys(dependencies).filter((name) => !new RegExp(`^\\|\\s*\`?${name.replace(/[/.]/g, '\\$&')}\`?\\s*\\|`, 'm').test(readme));
    expect(missing, 'add a row "| name | purpose | ... |" to the README for each').toEqual([]);
  });
});
