/**
 * The published artefact as a user gets it: a private build (tsup into a folder of its own, so a
 * build running elsewhere cannot change files mid-way), `npm pack`, and `npm install -g` of the
 * tarball into an empty prefix with dev dependencies omitted. Used by the installed-package test
 * and by scripts/bench-install.ts (the install figure in `.ci/run`'s log).
 */
import { execFile } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface PackedInstall {
  readonly prefix: string;
  /** The installed lindwyrm package folder. */
  readonly packageDir: string;
  /** The installed `lwyrm` / `lindwyrm` commands. */
  readonly bin: { readonly lwyrm: string; readonly lindwyrm: string };
  readonly tarballBytes: number;
  /** Sum of the installed files' sizes. */
  readonly bytes: number;
  /** What they take on disk (as `du` counts: blocks). */
  readonly diskBytes: number;
  readonly files: number;
  /** Packages in the installed tree, lindwyrm included. */
  readonly packages: readonly string[];
  /** npm's own count ("added N packages"). */
  readonly npmAdded: number | undefined;
  remove(): Promise<void>;
}

function run(cmd: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile(cmd, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } }, (error, stdout, stderr) => {
      if (error) return fail(new Error(`${cmd} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      done(`${stdout}${stderr}`);
    });
  });
}

async function walk(dir: string, visit: (path: string, size: number, blocks: number) => void): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const info = await lstat(path);
    visit(path, info.size, info.blocks * 512);
    if (entry.isDirectory()) await walk(path, visit);
  }
}

/** Every folder directly under a node_modules (or its @scope) that holds a package.json. */
async function installedPackages(nodeModules: string): Promise<string[]> {
  const found: string[] = [];
  const scan = async (dir: string, scope = ''): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (!scope && entry.name.startsWith('@')) {
        await scan(path, entry.name);
        continue;
      }
      try {
        await stat(join(path, 'package.json'));
      } catch {
        continue;
      }
      found.push(scope ? `${scope}/${entry.name}` : entry.name);
      await scan(join(path, 'node_modules'));
    }
  };
  await scan(nodeModules);
  return found.sort();
}

export async function packAndInstall(): Promise<PackedInstall> {
  const work = await mkdtemp(join(tmpdir(), 'lw-packed-'));
  try {
    const pkg = join(work, 'pkg');
    await mkdir(pkg);
    for (const item of ['package.json', 'README.md', 'LICENSE', 'examples', 'docs']) await cp(join(root, item), join(pkg, item), { recursive: true });
    await run(join(root, 'node_modules', '.bin', 'tsup'), ['--out-dir', join(pkg, 'dist'), '--silent'], root);
    const packed = await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], pkg);
    const tarball = join(work, packed.trim().split('\n').pop() ?? '');
    const prefix = join(work, 'prefix');
    const installed = await run('npm', ['install', '-g', tarball, '--prefix', prefix, '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], work);
    const added = /added (\d+) packages?/.exec(installed)?.[1];
    const nodeModules = join(prefix, 'lib', 'node_modules');
    let bytes = 0;
    let diskBytes = 0;
    let files = 0;
    await walk(nodeModules, (_path, size, blocks) => {
      bytes += size;
      diskBytes += blocks;
      files++;
    });
    return {
      prefix,
      packageDir: join(nodeModules, 'lindwyrm'),
      bin: { lwyrm: join(prefix, 'bin', 'lwyrm'), lindwyrm: join(prefix, 'bin', 'lindwyrm') },
      tarballBytes: (await stat(tarball)).size,
      bytes,
      diskBytes,
      files,
      packages: await installedPackages(nodeModules),
      npmAdded: added === undefined ? undefined : Number(added),
      remove: () => rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
    };
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}
