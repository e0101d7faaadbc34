/**
 * The baseline kept between sessions, so a new session of a project it knows reads nothing but
 * the stats: every entry whose stat still matches (and whose blob is still stored) is taken as is.
 * A damaged or foreign file is ignored; the baseline is then rebuilt by a full scan.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE } from './blob-store.js';
import type { Known } from './baseline.js';
import type { Entry } from './types.js';

const NAME = 'baseline.json';

type Row = [string, Known['kind'], number, number, number, number, number, Entry, 0 | 1];

interface BaselineFile {
  readonly version: 1;
  readonly root: string;
  readonly scanStart: number;
  readonly rows: readonly Row[];
}

export async function readBaselineFile(dir: string, root: string): Promise<{ entries: [string, Known][]; scanStart: number } | undefined> {
  let parsed: BaselineFile;
  try {
    parsed = JSON.parse(await readFile(join(dir, NAME), 'utf8')) as BaselineFile;
  } catch {
    return undefined;
  }
  if (parsed.version !== 1 || parsed.root !== root || !Array.isArray(parsed.rows)) return undefined;
  const entries: [string, Known][] = [];
  for (const row of parsed.rows) {
    if (!Array.isArray(row) || row.length !== 9 || typeof row[0] !== 'string' || typeof row[7] !== 'object' || row[7] === null) continue;
    const [rel, kind, size, mtimeMs, ctimeMs, ino, mode, state, racy] = row;
    entries.push([rel, { kind, size, mtimeMs, ctimeMs, ino, mode, state, seen: 0, racy: racy === 1 }]);
  }
  return { entries, scanStart: typeof parsed.scanStart === 'number' ? parsed.scanStart : 0 };
}

export async function writeBaselineFile(dir: string, root: string, scanStart: number, map: ReadonlyMap<string, Known>): Promise<void> {
  const rows: Row[] = [];
  for (const [rel, k] of map) rows.push([rel, k.kind, k.size, k.mtimeMs, k.ctimeMs, k.ino, k.mode, k.state, k.racy ? 1 : 0]);
  const body: BaselineFile = { version: 1, root, scanStart, rows };
  const path = join(dir, NAME);
  const temp = `${path}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', FILE_MODE);
  try {
    await handle.writeFile(JSON.stringify(body));
  } finally {
    await handle.close();
  }
  await rename(temp, path).catch(async (error: unknown) => {
    await rm(temp, { force: true });
    throw error;
  });
}

/** Hashes a saved baseline names (for collection by a process that never loaded it). */
export async function baselineFileHashes(dir: string, root: string): Promise<Set<string>> {
  const out = new Set<string>();
  const saved = await readBaselineFile(dir, root);
  for (const [, k] of saved?.entries ?? []) if (k.state.kind === 'file') out.add(k.state.hash);
  return out;
}
