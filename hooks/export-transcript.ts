/**
 * /export [file]: where the transcript goes and writing it. By default a file per session under
 * the data dir (never an untracked file in the user's repository); a name given is taken from the
 * project root, `~/` from the home directory.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { appPaths } from '../src/config/paths.js';
import type { SessionState } from '../src/agent/state.js';
import { transcriptMarkdown } from '../components/export-markdown.js';

type Env = Readonly<Record<string, string | undefined>>;

export function exportPath(arg: string, state: Pick<SessionState, 'sessionId' | 'projectRoot'>, env: Env = process.env): string {
  const name = arg.trim();
  if (name === '') return join(appPaths(env).dataDir, 'exports', `${state.sessionId || 'session'}.md`);
  if (name === '~' || name.startsWith('~/')) return join(env['HOME'] || homedir(), name.slice(1));
  return isAbsolute(name) ? name : join(state.projectRoot, name);
}

/** Writes the export; resolves to the path written. The default folder is created private (0700). */
export async function writeExport(arg: string, state: SessionState, env: Env = process.env): Promise<string> {
  const path = exportPath(arg, state, env);
  if (arg.trim() === '') await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, transcriptMarkdown(state), { encoding: 'utf8', mode: 0o600 });
  return path;
}
