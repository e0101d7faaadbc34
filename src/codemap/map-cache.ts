/**
 * Rendered maps kept on disk next to the index, keyed by a fingerprint of everything the map is
 * made from. An unchanged project then gets its map at open without parsing the per-file indexes,
 * building the graph or ranking it. It is derived data: anything odd about the file means a miss.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomic-write.js';
import { RENDER_SETTINGS } from './map-text.js';
import { RANK_SETTINGS } from './rank.js';

/**
 * Bump when ranking or rendering code changes what a map looks like for the same graph; the test
 * in test/codemap/map-render-version.test.ts fails until you do. Changed constants need no bump:
 * they are part of MAP_RENDER_VERSION already.
 */
export const MAP_RENDER_LOGIC = 3;

/** What stored maps are keyed by besides the index: the logic version and every ranking and rendering constant. */
export const MAP_RENDER_VERSION = `${MAP_RENDER_LOGIC}-${createHash('sha1').update(JSON.stringify([RANK_SETTINGS, RENDER_SETTINGS])).digest('hex').slice(0, 12)}`;

interface MapFile {
  readonly version: string;
  readonly key: string;
  readonly texts: Record<string, string>;
}

export interface MapCache {
  /** The stored map for this key and budget. */
  get(key: string, budget: number): string | undefined;
  /** True when some map is stored for this key (the index it was made from is unchanged). */
  has(key: string): boolean;
  set(key: string, budget: number, text: string): void;
  /** Writes the maps when they changed since the last save. */
  save(): Promise<void>;
}

function mapFile(cacheDir: string, root: string): string {
  return join(cacheDir, `maps-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);
}

function isMapFile(value: unknown): value is MapFile {
  const v = value as Partial<MapFile> | null;
  return !!v && v.version === MAP_RENDER_VERSION && typeof v.key === 'string' && !!v.texts && typeof v.texts === 'object'
    && Object.values(v.texts).every((t) => typeof t === 'string');
}

export async function openMapCache(cacheDir: string, root: string): Promise<MapCache> {
  const path = mapFile(cacheDir, root);
  let stored: MapFile = { version: MAP_RENDER_VERSION, key: '', texts: {} };
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (isMapFile(parsed)) stored = parsed;
  } catch {
    // No file or a broken one: the maps are rebuilt from the index.
  }
  let dirty = false;
  return {
    get: (key, budget) => (stored.key === key && Object.hasOwn(stored.texts, String(budget)) ? stored.texts[String(budget)] : undefined),
    has: (key) => stored.key === key && Object.keys(stored.texts).length > 0,
    set(key, budget, text) {
      if (stored.key !== key) stored = { version: MAP_RENDER_VERSION, key, texts: {} };
      if (stored.texts[String(budget)] === text) return;
      stored.texts[String(budget)] = text;
      dirty = true;
    },
    async save() {
      if (!dirty) return;
      dirty = false;
      await mkdir(cacheDir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(path, JSON.stringify(stored), { durable: false });
    },
  };
}
