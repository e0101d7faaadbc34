import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = join(root, 'src', 'cli.ts');
// An absolute URL: --import resolves a bare name from the child's cwd, a temp dir here.
const tsxLoader = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

let home: string;
beforeAll(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), 'lwyrm-proc-')));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

/** The real CLI in a child process (from source through tsx, so no build is needed). */
function lwyrm(args: string[], cwd = home): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', tsxLoader, entry, ...args],
      { cwd, env: { PATH: process.env['PATH'] ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

describe('the lwyrm process', () => {
  it('prints the version from package.json', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const { code, stdout } = await lwyrm(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${pkg.version}\n`);
  });

  it('exits 2 on an unknown flag, naming it', async () => {
    const { code, stderr } = await lwyrm(['--no-such-flag']);
    expect(code).toBe(2);
    expect(stderr).toContain('--no-such-flag');
  });

  it('exits 2 with no prompt and no terminal', async () => {
    const { code, stderr } = await lwyrm([]);
    expect(code).toBe(2);
    expect(stderr).toContain('no terminal');
  });

  it('--init writes AGENTS.md with no API key and exits 0', async () => {
    const { code } = await lwyrm(['--init']);
    expect(code).toBe(0);
    expect(existsSync(join(home, 'AGENTS.md'))).toBe(true);
    expect((await lwyrm(['--init'])).code).toBe(1);
  });
});

/**
 * Modules reachable from `file` through static imports only (what --version/--help load): import
 * with or without bindings, side-effect imports and `export … from`; not `import type`.
 */
async function staticGraph(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = await readFile(file, 'utf8');
  for (const match of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
    const spec = match[1] ?? '';
    if (!spec.startsWith('.')) {
      seen.add(spec);
      continue;
    }
    const base = resolve(dirname(file), spec).replace(/\.js$/, '');
    await staticGraph(existsSync(`${base}.tsx`) ? `${base}.tsx` : `${base}.ts`, seen);
  }
  return seen;
}

describe('fast start', () => {
  it('loads no yargs, Ink, React, TypeScript or provider code for --version and --help', async () => {
    const graph = [...(await staticGraph(entry))];
    expect(graph).toContain(join(root, 'src', 'cli', 'flags.ts'));
    expect(graph.filter((m) => /^(ink|react|typescript|yargs|undici|smol-toml)/.test(m) || m.includes('/providers/'))).toEqual([]);
  });

  it('the import scan sees every static form, so the check above can fail', async () => {
    await writeFile(join(home, 'entry.ts'), "import { a } from './a.js';\nimport type { T } from 'typescript';\nconst later = () => import('undici');\n");
    await writeFile(join(home, 'a.ts'), "import 'react';\nexport * from 'ink';\nexport { b } from './b.js';\nexport const a = 'from \\'x\\'';\n");
    await writeFile(join(home, 'b.tsx'), "import {\n  render,\n} from 'ink-text-input';\nexport const b = 1;\n");
    const graph = [...(await staticGraph(join(home, 'entry.ts')))].filter((m) => !m.startsWith('/'));
    expect(graph.sort()).toEqual(['ink', 'ink-text-input', 'react']);
  });
});
