/** Temp folders for a project and its data dir, removed after each test. */
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realpathSync } from 'node:fs';

export interface TempSetup {
  readonly root: string;
  readonly project: string;
  readonly sessionsDir: string;
  readonly offloadDir: string;
  cleanup(): Promise<void>;
}

export async function tempSetup(): Promise<TempSetup> {
  const root = realpathSync(await mkdtemp(join(tmpdir(), 'lwyrm-sessions-')));
  const project = join(root, 'project');
  await mkdir(project);
  return {
    root,
    project,
    sessionsDir: join(root, 'data', 'lindwyrm', 'sessions'),
    offloadDir: join(root, 'data', 'lindwyrm', 'offload'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
