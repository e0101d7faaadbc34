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
import type { FileGraph, ResolvedEdge } from './file-graph.js';
import { writeAtomic } from './index-cache.js';
import type { EdgeKind, ProjectFacts, SymbolInfo, SymbolKind } from './types.js';

const FORMAT = 1;
const MAGIC = 'lindwyrm-codemap-graph';
const KINDS: readonly SymbolKind[] = ['function', 'class', 'method', 'property', 'interface', 'type', 'enum', 'namespace', 'variable', 'module'];
const EDGE_KINDS: readonly EdgeKind[] = ['calls', 'references', 'extends', 'implements', 'imports'];

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
/** [file, size, mtimeMs, plugin, symbols, edges (5 numbers each), deps, names, imports] */
type FileRow = [string, number, number, number, SymbolRow[], number[], number[], string[], [string, number[]][]];

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

function decodeSymbol(r: SymbolRow): SymbolInfo {
  return {
    name: r[0], kind: KINDS[r[1]]!, startLine: r[2], endLine: r[3], exported: (r[4] & 1) === 1, signature: r[5],
    ...(r[6] !== undefined ? { container: r[6] } : {}), ...((r[4] & 2) === 2 ? { isDefault: true } : {}),
  };
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
    const edges: number[] = [];
    for (const [from, to, toLocal, kind, line] of part.edges) edges.push(from, ids.get(to)!, toLocal, EDGE_KINDS.indexOf(kind), line);
    return [file, stamp?.size ?? -1, stamp?.mtimeMs ?? -1, plugin, part.symbols.map(encodeSymbol), edges,
      part.deps.map((d) => ids.get(d)!), [...part.names], part.imports.map(([source, targets]) => [source, targets.map((t) => ids.get(t)!)])];
  });
  const body = JSON.stringify({ root, facts: JSON.stringify(facts), plugins, files } satisfies Stored);
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  await writeAtomic(graphFile(cacheDir, root), `${MAGIC} ${FORMAT} ${crc32(body)}\n${body}`);
}

/** The stored parts for this project and facts; undefined when there are none or they cannot be used. */
export function loadGraphStore(cacheDir: string, root: string, facts: ProjectFacts): StoredGraph | undefined {
  try {
    const text = readFileSync(graphFile(cacheDir, root), 'utf8');
    const newline = text.indexOf('\n');
    const m = /^(\S+) (\d+) (\d+)$/.exec(text.slice(0, newline));
    if (!m || m[1] !== MAGIC || Number(m[2]) !== FORMAT) return undefined;
    const body = text.slice(newline + 1);
    if (crc32(body) !== Number(m[3])) return undefined;
    const stored = JSON.parse(body) as Stored;
    if (stored.root !== root || stored.facts !== JSON.stringify(facts)) return undefined;
    const paths = stored.files.map((f) => f[0]);
    const parts = new Map<string, FileGraph>();
    const stamps = new Map<string, Stamp>();
    for (const [file, size, mtimeMs, plugin, symbols, flat, deps, names, imports] of stored.files) {
      const edges: ResolvedEdge[] = [];
      for (let i = 0; i < flat.length; i += 5) edges.push([flat[i]!, paths[flat[i + 1]!]!, flat[i + 2]!, EDGE_KINDS[flat[i + 3]!]!, flat[i + 4]!]);
      parts.set(file, {
        symbols: symbols.map(decodeSymbol), edges, deps: deps.map((d) => paths[d]!), names,
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
