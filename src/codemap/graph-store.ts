/**
 * The per-file graph parts on disk, next to the index: a first tool call after a warm start loads
 * them (one JSON.parse, no name resolution) and re-resolves only what changed since they were
 * written. Each part carries the size, mtime and plugin of the file it was made from; a part whose
 * stamp differs from the index is treated as changed. Derived data: anything odd means a rebuild.
 *
 * Stored by column (one array per field for the whole project), not as an object per symbol: a
 * fresh process parses a dozen long arrays far faster than tens of thousands of small ones, and
 * an unchanged project's graph is assembled straight from them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { EDGE_KINDS, edgeLists, projectSymbol, type FileGraph } from './file-graph.js';
import type { CodeGraph, ProjectSymbol } from './graph-types.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import type { ProjectFacts, SymbolInfo, SymbolKind } from './types.js';

const FORMAT = 4;
const MAGIC = 'lindwyrm-codemap-graph';
const KINDS: readonly SymbolKind[] = ['function', 'class', 'method', 'property', 'interface', 'type', 'enum', 'namespace', 'variable', 'module'];

export interface Stamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly plugin: string;
}

export interface StoredGraph {
  /** The stamp each part was made from (absent: unknown, treat as changed). */
  readonly stamps: ReadonlyMap<string, Stamp>;
  readonly files: readonly string[];
  /** The graph as stored (for an index that matches every stamp). */
  graph(): CodeGraph;
  /** The per-file parts, to update (sharing the graph's symbols). */
  parts(): Map<string, FileGraph>;
}

/** Per-file counts index into the flat columns, in file order. */
interface Columns {
  readonly root: string;
  readonly facts: string;
  readonly plugins: string[];
  readonly files: string[];
  /** size, mtimeMs, plugin index (-1: unknown) per file. */
  readonly stamps: number[];
  readonly symbolCount: number[];
  readonly name: string[];
  readonly kind: number[];
  readonly start: number[];
  readonly end: number[];
  /** exported | isDefault << 1 */
  readonly flags: number[];
  readonly signature: string[];
  /** '' for none. */
  readonly container: string[];
  readonly edgeCount: number[];
  /** from (local), target file, target (local), kind, line. */
  readonly edges: number[];
  readonly depCount: number[];
  readonly deps: number[];
  readonly nameCount: number[];
  readonly names: string[];
  readonly importCount: number[];
  readonly sources: string[];
  readonly targetCount: number[];
  readonly targets: number[];
}

function graphFile(cacheDir: string, root: string): string {
  return join(cacheDir, `graph-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);
}

export async function saveGraphStore(cacheDir: string, root: string, facts: ProjectFacts,
  parts: ReadonlyMap<string, FileGraph>, stampOf: (file: string) => Stamp | undefined): Promise<void> {
  const files = [...parts.keys()].sort();
  const ids = new Map(files.map((p, i) => [p, i]));
  const c: Columns = {
    root, facts: JSON.stringify(facts), plugins: [], files, stamps: [], symbolCount: [], name: [], kind: [], start: [], end: [],
    flags: [], signature: [], container: [], edgeCount: [], edges: [], depCount: [], deps: [], nameCount: [], names: [],
    importCount: [], sources: [], targetCount: [], targets: [],
  };
  for (const file of files) {
    const part = parts.get(file)!;
    const stamp = stampOf(file);
    let plugin = stamp ? c.plugins.indexOf(stamp.plugin) : -1;
    if (stamp && plugin < 0) plugin = c.plugins.push(stamp.plugin) - 1;
    c.stamps.push(stamp?.size ?? -1, stamp?.mtimeMs ?? -1, plugin);
    c.symbolCount.push(part.symbols.length);
    for (const s of part.symbols) {
      c.name.push(s.name);
      c.kind.push(KINDS.indexOf(s.kind));
      c.start.push(s.startLine);
      c.end.push(s.endLine);
      c.flags.push((s.exported ? 1 : 0) | (s.isDefault ? 2 : 0));
      c.signature.push(s.signature);
      c.container.push(s.container ?? '');
    }
    c.edgeCount.push(part.targets.length);
    for (let i = 0, e = 0; i < part.edges.length; i += 4, e++) {
      c.edges.push(part.edges[i]!, ids.get(part.targets[e]!)!, part.edges[i + 1]!, part.edges[i + 2]!, part.edges[i + 3]!);
    }
    c.depCount.push(part.deps.length);
    for (const d of part.deps) c.deps.push(ids.get(d)!);
    c.nameCount.push(part.names.length);
    c.names.push(...part.names);
    c.importCount.push(part.imports.length);
    for (const [source, targets] of part.imports) {
      c.sources.push(source);
      c.targetCount.push(targets.length);
      for (const t of targets) c.targets.push(ids.get(t)!);
    }
  }
  const body = Buffer.from(JSON.stringify(c));
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(graphFile(cacheDir, root), Buffer.concat([Buffer.from(`${MAGIC} ${FORMAT} ${crc32(body)}\n`), body]), { durable: false });
}

function symbolAt(c: Columns, i: number, id: number, file: string): ProjectSymbol {
  const info: { -readonly [K in keyof SymbolInfo]: SymbolInfo[K] } = {
    name: c.name[i]!, kind: KINDS[c.kind[i]!]!, startLine: c.start[i]!, endLine: c.end[i]!, exported: (c.flags[i]! & 1) === 1, signature: c.signature[i]!,
  };
  if (c.container[i]) info.container = c.container[i];
  if ((c.flags[i]! & 2) === 2) info.isDefault = true;
  return projectSymbol(info, id, file);
}

function assemble(c: Columns): CodeGraph {
  const symbols: ProjectSymbol[] = [];
  const byFile = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  const offsets: number[] = [];
  c.files.forEach((file, f) => {
    offsets.push(symbols.length);
    const ids: number[] = [];
    for (let k = 0; k < c.symbolCount[f]!; k++) {
      const id = symbols.length;
      const s = symbolAt(c, id, id, file);
      symbols.push(s);
      ids.push(id);
      const list = byName.get(s.name);
      if (list) list.push(id);
      else byName.set(s.name, [id]);
    }
    byFile.set(file, ids);
  });
  const lists = edgeLists(symbols.length);
  let at = 0;
  c.files.forEach((file, f) => {
    for (let k = 0; k < c.edgeCount[f]!; k++, at += 5) {
      const from = c.edges[at]! >= 0 ? offsets[f]! + c.edges[at]! : -1;
      const to = offsets[c.edges[at + 1]!]! + c.edges[at + 2]!;
      lists.add({ from, to, kind: EDGE_KINDS[c.edges[at + 3]!]!, file, line: c.edges[at + 4]! });
    }
  });
  const { edges, outgoing, incoming } = lists;
  return { symbols, edges, outgoing, incoming, byName, byFile };
}

function partsOf(c: Columns, graph: CodeGraph): Map<string, FileGraph> {
  const parts = new Map<string, FileGraph>();
  let sym = 0;
  let edge = 0;
  let dep = 0;
  let name = 0;
  let imp = 0;
  let target = 0;
  c.files.forEach((file, f) => {
    const symbols = graph.symbols.slice(sym, (sym += c.symbolCount[f]!));
    const edges: number[] = [];
    const targets: string[] = [];
    for (let k = 0; k < c.edgeCount[f]!; k++, edge += 5) {
      edges.push(c.edges[edge]!, c.edges[edge + 2]!, c.edges[edge + 3]!, c.edges[edge + 4]!);
      targets.push(c.files[c.edges[edge + 1]!]!);
    }
    const deps = c.deps.slice(dep, (dep += c.depCount[f]!)).map((d) => c.files[d]!);
    const names = c.names.slice(name, (name += c.nameCount[f]!));
    const imports: [string, string[]][] = [];
    for (let k = 0; k < c.importCount[f]!; k++, imp++) {
      imports.push([c.sources[imp]!, c.targets.slice(target, (target += c.targetCount[imp]!)).map((t) => c.files[t]!)]);
    }
    parts.set(file, { symbols, edges, targets, deps, names, imports });
  });
  return parts;
}

/** The stored parts for this project and facts; undefined when there are none or they cannot be used. */
export function loadGraphStore(cacheDir: string, root: string, facts: ProjectFacts): StoredGraph | undefined {
  let c: Columns;
  try {
    const data = readFileSync(graphFile(cacheDir, root));
    const newline = data.indexOf(0x0a);
    const m = /^(\S+) (\d+) (\d+)$/.exec(data.toString('latin1', 0, Math.max(0, newline)));
    if (!m || m[1] !== MAGIC || Number(m[2]) !== FORMAT) return undefined;
    const body = data.subarray(newline + 1);
    if (crc32(body) !== Number(m[3])) return undefined;
    c = JSON.parse(body.toString('utf8')) as Columns;
    if (c.root !== root || c.facts !== JSON.stringify(facts) || !Array.isArray(c.files)) return undefined;
  } catch {
    // Missing, torn or of a shape we do not know: the parts are rebuilt from the index.
    return undefined;
  }
  const stamps = new Map<string, Stamp>();
  c.files.forEach((file, f) => {
    const plugin = c.stamps[3 * f + 2]!;
    if (plugin >= 0) stamps.set(file, { size: c.stamps[3 * f]!, mtimeMs: c.stamps[3 * f + 1]!, plugin: c.plugins[plugin]! });
  });
  let graph: CodeGraph | undefined;
  const assembled = (): CodeGraph => (graph ??= assemble(c));
  return { stamps, files: c.files, graph: assembled, parts: () => partsOf(c, assembled()) };
}
