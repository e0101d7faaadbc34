/** Temp HOME / XDG dirs and a project dir for config tests; never the developer's own config. */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempEnv {
  readonly home: string;
  readonly project: string;
  readonly userFile: string;
  readonly projectFile: string;
  readonly env: Record<string, string | undefined>;
  writeUser(toml: string): Promise<void>;
  writeProject(toml: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function makeTempEnv(): Promise<TempEnv> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'lwyrm-cfg-')));
  const home = join(root, 'home');
  const project = join(root, 'work', 'proj');
  await mkdir(join(home, '.config', 'lindwyrm'), { recursive: true });
  await mkdir(project, { recursive: true });
  const userFile = join(home, '.config', 'lindwyrm', 'config.toml');
  const projectFile = join(project, '.lindwyrm.toml');
  return {
    home,
    project,
    userFile,
    projectFile,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache') },
    writeUser: (toml) => writeFile(userFile, toml),
    writeProject: (toml) => writeFile(projectFile, toml),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
