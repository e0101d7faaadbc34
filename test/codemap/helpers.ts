/** Temp projects and a real Config for code map tests (temp HOME / XDG dirs, never the developer's). */
import { copyFile, mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/load-config.js';
import type { Config } from '../../src/config/types.js';
import type { IndexJob } from '../../src/codemap/run-indexing.js';
import type { ToolContext } from '../../src/tools/types.js';
import { createSessionGrants } from '../../src/policy/session-grants.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'codemap');

export interface TempProject {
  readonly root: string;
  readonly project: string;
  readonly cacheDir: string;
  readonly env: Record<string, string | undefined>;
  config(userToml?: string): Promise<Config>;
  write(rel: string, text: string): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * Fixture files are stored with a `.txt` suffix, so the repository's typecheck, lint and git rules
 * do not apply to them (gitignore.txt becomes .gitignore); the copy takes the suffix off.
 */
async function copyFixture(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const name = entry.name === 'gitignore.txt' ? '.gitignore' : entry.name.replace(/\.txt$/, '');
    if (entry.isDirectory()) {
      await mkdir(join(to, name), { recursive: true });
      await copyFixture(join(from, entry.name), join(to, name));
    } else await copyFile(join(from, entry.name), join(to, name));
  }
}

/** A copy of a fixture (or an empty project) inside a fresh temp dir with its own HOME. */
export async function tempProject(fixture?: string): Promise<TempProject> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'lwyrm-map-')));
  const home = join(root, 'home');
  const project = join(root, 'proj');
  await mkdir(join(home, '.config', 'lindwyrm'), { recursive: true });
  await mkdir(project, { recursive: true });
  if (fixture) await copyFixture(join(FIXTURES, fixture), project);
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache') };
  const write = async (rel: string, text: string): Promise<void> => {
    await mkdir(dirname(join(project, rel)), { recursive: true });
    await writeFile(join(project, rel), text);
  };
  return {
    root,
    project,
    cacheDir: join(home, '.cache', 'lindwyrm', 'codemap', 'test'),
    env,
    async config(userToml) {
      if (userToml !== undefined) await writeFile(join(home, '.config', 'lindwyrm', 'config.toml'), userToml);
      return loadConfig({ cwd: project, env });
    },
    write,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export function toolContext(config: Config): ToolContext {
  return {
    config,
    projectRoot: config.projectRoot,
    sessionId: 'test',
    signal: new AbortController().signal,
    readOnly: false,
    preApproved: new Set(),
    sessionGrants: createSessionGrants(),
    approve: async () => 'no',
    offload: { read: async () => undefined },
    vision: false,
  };
}

/**
 * `count` small TypeScript modules under src/ of `tp`, each calling the next (the last the first),
 * so their index has edges across files; returned as index jobs, in order.
 */
export async function writeModuleChain(tp: TempProject, count: number): Promise<IndexJob[]> {
  const name = (i: number): string => `m${String(i).padStart(4, '0')}`;
  const jobs: IndexJob[] = [];
  for (let i = 0; i < count; i++) {
    const next = (i + 1) % count;
    const rel = `src/${name(i)}.ts`;
    await tp.write(rel, `import { f${next} } from './${name(next)}';\nexport function f${i}(x: number): number {\n  return x > 0 ? f${next}(x - 1) : ${i};\n}\n`);
    jobs.push({ rel, abs: join(tp.project, rel) });
  }
  return jobs;
}
