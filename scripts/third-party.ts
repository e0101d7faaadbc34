/**
 * The build step that makes a small install possible (tsup.config.ts runs it as an esbuild
 * plugin, after every build, into that build's out dir):
 *
 * - copies the parts of TypeScript and @vscode/tree-sitter-wasm that lindwyrm loads into
 *   dist/vendor/ (src/codemap/vendored.ts finds them there), so neither is installed as a package;
 * - writes dist/THIRD-PARTY-LICENSES.txt: every package whose code the bundle contains (read from
 *   esbuild's metafile, so nothing bundled can be missed) and the vendored ones, each with its
 *   licence file(s) verbatim.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Metafile, Plugin } from 'esbuild';
import { SHIPPED_GRAMMARS, type VendoredName } from '../src/codemap/vendored.js';

export const LICENSES_FILE = 'THIRD-PARTY-LICENSES.txt';

interface VendorSpec {
  readonly pkg: string;
  /** [file in the package, name in dist/vendor/<dir>] */
  readonly files: (pkgDir: string) => readonly (readonly [string, string])[];
}

export const VENDOR: Readonly<Record<VendoredName, VendorSpec>> = {
  typescript: {
    pkg: 'typescript',
    // The compiler API and the default libraries the checker reads; not tsc, tsserver, the
    // typings installer or the 13 translations of the diagnostics (~11 MB).
    files: (dir) => [
      ['lib/typescript.js', 'typescript.js'],
      ...readdirSync(join(dir, 'lib'))
        .filter((f) => /^lib\..*\.d\.ts$/.test(f))
        .map((f) => [`lib/${f}`, f] as const),
      ['LICENSE.txt', 'LICENSE.txt'],
      ['ThirdPartyNoticeText.txt', 'ThirdPartyNoticeText.txt'],
    ],
  },
  'tree-sitter': {
    pkg: '@vscode/tree-sitter-wasm',
    // The runtime and the grammars the code map and highlighter load; TypeScript/JavaScript are
    // parsed by TypeScript itself, and PowerShell, CSS, INI and regex are never loaded (~4.4 MB).
    files: () => [
      ['wasm/tree-sitter.js', 'tree-sitter.js'],
      ['wasm/tree-sitter.wasm', 'tree-sitter.wasm'],
      ...SHIPPED_GRAMMARS.map((g) => [`wasm/tree-sitter-${g}.wasm`, `tree-sitter-${g}.wasm`] as const),
      ['LICENSE', 'LICENSE'],
      // Where each grammar comes from (component governance manifest).
      ['cgmanifest.json', 'cgmanifest.json'],
    ],
  },
};

interface PackageInfo {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  readonly homepage: string;
  readonly dir: string;
}

function readPackage(dir: string): PackageInfo {
  const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    license?: string;
    homepage?: string;
    repository?: string | { url?: string };
  };
  const repo = typeof json.repository === 'string' ? json.repository : json.repository?.url;
  return { name: json.name, version: json.version, license: json.license ?? 'see below', homepage: json.homepage ?? repo ?? '', dir };
}

/** The package folder a bundled file belongs to: the part up to its last node_modules/NAME. */
export function packageDirOf(file: string): string | undefined {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file.replace(/\\/g, '/'));
  return m?.[1];
}

/** The packages whose files esbuild put into the bundle (the metafile's inputs under node_modules). */
export function bundledPackageDirs(metafile: Metafile, cwd: string): string[] {
  const dirs = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDirOf(input);
    if (dir) dirs.add(resolve(cwd, dir));
  }
  return [...dirs];
}

function licenceTexts(dir: string): { file: string; text: string }[] {
  const files = readdirSync(dir).filter((f) => /^(licen[cs]e|copying|notice|thirdpartynoticetext)([.-].*)?$/i.test(f) && !/\.(js|ts|json)$/i.test(f));
  return files.sort().map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8').trim() }));
}

const MIT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/** The first copyright line in a package's own JavaScript (yoga-layout ships no licence file, only headers). */
function copyrightLine(dir: string): string | undefined {
  const stack = [dir];
  while (stack.length > 0) {
    const here = stack.pop() ?? '';
    for (const entry of readdirSync(here, { withFileTypes: true })) {
      const path = join(here, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') stack.push(path);
      else if (/\.(m?js|cjs)$/.test(entry.name)) {
        const line = /Copyright[^\n*]*/.exec(readFileSync(path, 'utf8').slice(0, 4000))?.[0];
        if (line) return line.trim();
      }
    }
  }
  return undefined;
}

/** The package's licence files; for an MIT package without one, the MIT text under its sources' copyright line. */
function noticeTexts(info: PackageInfo): { file: string; text: string }[] {
  const texts = licenceTexts(info.dir);
  if (texts.length > 0) return texts;
  const copyright = info.license === 'MIT' ? copyrightLine(info.dir) : undefined;
  if (!copyright) throw new Error(`${info.name} ${info.version} ships no licence file: its notice cannot be bundled (scripts/third-party.ts)`);
  return [{ file: 'MIT licence (the package ships no licence file; copyright line from its sources)', text: `${copyright}\n\n${MIT}` }];
}

function section(info: PackageInfo, where: string): string {
  const texts = noticeTexts(info);
  const rule = '='.repeat(78);
  const body = texts.map((t) => `--- ${t.file}\n\n${t.text}`).join('\n\n');
  return `${rule}\n${info.name} ${info.version} — ${info.license} — ${where}${info.homepage ? `\n${info.homepage}` : ''}\n\n${body}\n`;
}

export function licensesText(bundled: readonly PackageInfo[], vendored: readonly (PackageInfo & { to: string })[]): string {
  const byName = (a: PackageInfo, b: PackageInfo) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version);
  const list = (ps: readonly PackageInfo[]) => ps.map((p) => `  ${p.name} ${p.version} (${p.license})`).join('\n');
  return [
    'Third-party software shipped inside lindwyrm, with its licence notices.',
    'Generated at build time by scripts/third-party.ts; do not edit.',
    '',
    `Bundled into the JavaScript files in dist/ (${bundled.length} packages):`,
    list([...bundled].sort(byName)),
    '',
    'Copied into dist/vendor/ (the files lindwyrm loads, unchanged):',
    [...vendored].sort(byName).map((p) => `  ${p.name} ${p.version} (${p.license}) in dist/vendor/${p.to}`).join('\n'),
    '',
    ...[...bundled].sort(byName).map((p) => section(p, 'bundled')),
    ...[...vendored].sort(byName).map((p) => section(p, `dist/vendor/${p.to}`)),
  ].join('\n');
}

/**
 * A hard link where it can (a build copies ~30 MB otherwise), a copy across file systems. Never
 * written in place: `to` may be a link to the file in node_modules.
 */
function place(from: string, to: string): void {
  if (existsSync(to)) {
    const [a, b] = [statSync(to), statSync(from)];
    if (a.ino === b.ino && a.dev === b.dev) return;
    rmSync(to);
  }
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

function vendor(outDir: string, cwd: string): (PackageInfo & { to: string })[] {
  const shipped: (PackageInfo & { to: string })[] = [];
  for (const [to, spec] of Object.entries(VENDOR) as [VendoredName, VendorSpec][]) {
    const pkgDir = join(cwd, 'node_modules', spec.pkg);
    const dest = join(outDir, 'vendor', to);
    mkdirSync(dest, { recursive: true });
    for (const [from, name] of spec.files(pkgDir)) {
      const source = join(pkgDir, from);
      if (!existsSync(source)) throw new Error(`${spec.pkg} has no ${from}: its layout changed (scripts/third-party.ts)`);
      place(source, join(dest, name));
    }
    shipped.push({ ...readPackage(pkgDir), to });
  }
  // Both packages are CommonJS; the package around them is "type": "module".
  writeFileSync(join(outDir, 'vendor', 'package.json'), '{ "type": "commonjs" }\n');
  return shipped;
}

/**
 * Imports the bundle leaves to Node at run time that name a package lindwyrm does not install:
 * after moving a package to devDependencies, a value import of it would otherwise only fail
 * on a user's machine. (require() through createRequire is not seen here; the installed-package
 * test runs the packed tarball for that.)
 */
export function strayImports(metafile: Metafile, runtime: readonly string[], optional: readonly string[]): string[] {
  const stray = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imp of output.imports) {
      if (!imp.external || imp.path.startsWith('.') || imp.path.startsWith('node:') || builtinModules.includes(imp.path)) continue;
      const name = imp.path.startsWith('@') ? imp.path.split('/').slice(0, 2).join('/') : (imp.path.split('/')[0] ?? '');
      if (!runtime.includes(name) && !optional.includes(name)) stray.add(imp.path);
    }
  }
  return [...stray].sort();
}

/** `external`: packages the build leaves external on purpose (bench-startup's view-external build). */
export function thirdPartyPlugin(options: { external?: readonly string[] } = {}): Plugin {
  return {
    name: 'lindwyrm-third-party',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0 || !result.metafile) return;
        const cwd = build.initialOptions.absWorkingDir ?? process.cwd();
        const outDir = resolve(cwd, build.initialOptions.outdir ?? dirname(build.initialOptions.outfile ?? 'dist/x'));
        const manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
        // Ink imports react-devtools-core (and ws, which tries its optional native helpers) only
        // under DEV=true, from a chunk of its own; none of them is installed.
        const optional = ['react-devtools-core', 'bufferutil', 'utf-8-validate', ...(options.external ?? [])];
        const stray = strayImports(result.metafile, Object.keys(manifest.dependencies ?? {}), optional);
        if (stray.length > 0) throw new Error(`the build imports packages that are not runtime dependencies: ${stray.join(', ')}`);
        const vendored = vendor(outDir, cwd);
        // One entry per name and version: npm may install the same version at several depths.
        const bundled = [...new Map(bundledPackageDirs(result.metafile, cwd).map(readPackage).map((p) => [`${p.name}@${p.version}`, p])).values()];
        writeFileSync(join(outDir, LICENSES_FILE), licensesText(bundled, vendored));
      });
    },
  };
}
