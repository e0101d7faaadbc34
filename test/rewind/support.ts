/** Real folders for the rewind tests: a project, a data dir, and a snapshot of a tree to compare. */
import { execFile } from 'node:child_process';
import { lstat, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export interface Dirs {
  readonly root: string;
  readonly project: string;
  readonly data: string;
  cleanup(): Promise<void>;
}

export async function makeDirs(): Promise<Dirs> {
  const root = await mkdtemp(join(tmpdir(), 'lw-rewind-'));
  const project = join(root, 'project');
  const data = join(root, 'data');
  await exec('mkdir', ['-p', project, data]);
  return { root, project, data, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export async function sh(cwd: string, script: string): Promise<string> {
  const { stdout } = await exec('bash', ['-c', script], { cwd });
  return stdout;
}

/** Every path under `dir` with its type, mode and contents or target (all of .git too). */
export async function snapshotTree(dir: string, rel = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(join(dir, rel))).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    const abs = join(dir, path);
    const info = await lstat(abs);
    const mode = (info.mode & 0o7777).toString(8);
    if (info.isSymbolicLink()) out[path] = `link ${await readlink(abs)}`;
    else if (info.isDirectory()) {
      out[path] = `dir ${mode}`;
      Object.assign(out, await snapshotTree(dir, path));
    } else out[path] = `file ${mode} ${(await readFile(abs)).toString('base64')}`;
  }
  return out;
}
