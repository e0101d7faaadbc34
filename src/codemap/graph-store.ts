/**
 * The per-file graph parts on disk, next to the index: a first tool call after a warm start loads
 * them (one JSON.parse, no name resolution) and re-resolves only what changed since they were
 * written. Each part carries the size, mtime and plugin of the file it was made from; a part whose
 * stamp differs from the index is treated as changed. Derived data: anything odd means a rebuild.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { projectSymbol, type FileGraph } from './file-graph.js';
import { writeAtomic } from './index-cache.js';
import type { ProjectSymbol } from './graph-types.js';
import type { ProjectFacts, SymbolInfo, SymbolKind } from './types.js';

const FORMAT = 2;
const MAGIC = 'lindwyrm-codemap-graph';
const KINDS: readonly SymbolKind[] = ['function', 'class', 'method', 'property', 'interface', 'type', 'enum', 'namespace', 'variable', 'module'];

export interface Stamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly plugin: string;
}

export interface StoredGraph {
  readonly parts: Map<string, FileGraph>;
  /** The stamp each part was made from (absent: unknown, treat as changed). */
  readonly stamps: Map<string, Stamp>;
}

/** [name, kind, startLine, endLine, exported | isDefault << 1, signature, container?] */
type SymbolRow = [string, number, number, number, number, string, string?];
/** [file, size, mtimeMs, plugin, symbols, edges (4 numbers each), edge target files, deps, names, imports] */
type FileRow = [string, number, number, number, SymbolRow[], number[], number[], number[], string[], [string, number[]][]];

interface Stored {
  readonly root: string;
  readonly facts: string;
  readonly plugins: string[];
  readonly files: FileRow[];
}

function graphFile(cacheDir: string, root: string): string {
  return join(cacheDir, `graph-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);
}

function encodeSymbol(s: SymbolInfo): SymbolRow {
  const row: SymbolRow = [s.name, KINDS.indexOf(s.kind), s.startLine, s.endLine, (s.exported ? 1 : 0) | (s.isDefault ? 2 : 0), s.signature];
  if (s.container) row.push(s.container);
  return row;
}

/** Straight to the graph's symbol (its id as the stored order gives it), so assembling reuses it. */
function decodeSymbol(r: SymbolRow, id: number, file: string): ProjectSymbol {
  const info: { -readonly [K in keyof SymbolInfo]: SymbolInfo[K] } = {
    name: r[0], kind: KINDS[r[1]]!, startLine: r[2], endLine: r[3], exported: (r[4] & 1) === 1, signature: r[5],
  };
  if (r[6] !== undefined) info.container = r[6];
  if ((r[4] & 2) === 2) info.isDefault = true;
  return projectSymbol(info, id, file);
}

export async function saveGraphStore(cacheDir: string, root: string, facts: ProjectFacts,
  parts: ReadonlyMap<string, FileGraph>, stampOf: (file: string) => Stamp | undefined): Promise<void> {
  const paths = [...parts.keys()].sort();
  const ids = new Map(paths.map((p, i) => [p, i]));
  const plugins: string[] = [];
  const files: FileRow[] = paths.map((file) => {
    const part = parts.get(file)!;
    const stamp = stampOf(file);
    let plugin = stamp ? plugins.indexOf(stamp.plugin) : -1;
    if (stamp && plugin < 0) plugin = plugins.push(stamp.plugin) - 1;
    return [file, stamp?.size ?? -1, stamp?.mtimeMs ?? -1, plugin, part.symbols.map(encodeSymbol), [...part.edges],
      part.targets.map((t) => ids.get(t)!), part.deps.map((d) => ids.get(d)!), [...part.names], part.imports.map(([source, targets]) => [source, targets.map((t) => ids.get(t)!)])];
  });
  const body = JSON.stringify({ root, facts: JSON.stringify(facts), plugins, files } satisfies Stored);
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  await writeAtomic(graphFile(cacheDir, root), `${MAGIC} ${FORMAT} ${crc32(body)}\n${body}`);
}

/** The stored parts for this project and facts; undefined when there are none or they cannot be used. */
export function loadGraphStore(cacheDir: string, root: string, facts: ProjectFacts): StoredGraph | undefined {
  try {
    const data = readFileSync(graphFile(cacheDir, root));
    const newline = data.indexOf(0x0a);
    const m = /^(\S+) (\d+) (\d+)$/.exec(data.toString('latin1', 0, Math.max(0, newline)));
    if (!m || m[1] !== MAGIC || Number(m[2]) !== FORMAT) return undefined;
    const body = data.subarray(newline + 1);
    if (crc32(body) !== Number(m[3])) return undefined;
    const stored = JSON.parse(body.toString('utf8')) as Stored;
    if (stored.root !== root || stored.facts !== JSON.stringify(facts)) return undefined;
    const paths = stored.files.map((f) => f[0]);
    const parts = new Map<string, FileGraph>();
    const stamps = new Map<string, Stamp>();
    let id = 0;
    for (const [file, size, mtimeMs, plugin, symbols, edges, targets, deps, names, imports] of stored.files) {
      parts.set(file, {
        symbols: symbols.map((r) => decodeSymbol(r, id++, file)), edges, targets: targets.map((t) => paths[t]!),
        deps: deps.map((d) => paths[d]!), names,
        imports: imports.map(([source, targets]) => [source, targets.map((t) => paths[t]!)]),
      });
      if (plugin >= 0) stamps.set(file, { size, mtimeMs, plugin: stored.plugins[plugin]! });
    }
    return { parts, stamps };
  } catch {
    // Missing, torn or of a shape we do not know: the parts are rebuilt from the index.
    return undefined;
  }
}
