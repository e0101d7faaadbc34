/**
 * Which session ids are saved in any project. Offloads live in one folder for all projects, so
 * the offload sweep (sweepOrphanedOffloads in src/context/offload-store.ts) asks this before it
 * removes a folder: a saved session's offloads must outlive any age limit, or its stubs break.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { idFromMetaName, parseHistoryName } from './layout.js';
import { noEntries } from '../diagnostics/ignore-error.js';

/** Ids with an index or a history file in any project folder (an unreadable one counts as saved). */
export async function savedSessionIds(sessionsDir: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const projects = await readdir(sessionsDir, { withFileTypes: true }).catch(noEntries);
  for (const project of projects) {
    if (!project.isDirectory()) continue;
    const names = await readdir(join(sessionsDir, project.name)).catch(noEntries);
    for (const name of names) {
      const id = idFromMetaName(name) ?? parseHistoryName(name)?.id;
      if (id !== undefined) ids.add(id);
    }
  }
  return ids;
}
