/**
 * What of a file's index other files' answers read: its symbols' names, kinds, containers, export
 * flags and declared types (in line order: an edge names its target by index), its imports and
 * re-exports, its bases (`extends`, `implements`) and its scoping. An edit that keeps all that but
 * the symbols of a few names (a body rewritten, a declaration added or removed) changes other files'
 * answers only where they write one of those names; every other file keeps its edges, moved to the
 * symbols' new indexes. A new line in a hub file then re-resolves the hub, not its hundreds of users.
 */
import type { FileIndex, SymbolInfo } from './types.js';

export interface ShapeChange {
  /** Names whose symbols were added, removed or changed. */
  readonly names: ReadonlySet<string>;
  /** Each symbol's old index (in line order) → its new one; -1 for one that went away. */
  readonly moved: readonly number[];
}

const symbolKey = (s: SymbolInfo): string =>
  `${s.name}\0${s.kind}\0${s.container ?? ''}\0${s.exported ? 1 : 0}\0${s.isDefault ? 1 : 0}\0${s.type ?? ''}`;

/** Everything but the symbols: a change there can change what any file that reads this one gets. */
function fileKey(index: FileIndex): string {
  const bases = index.edges.filter((e) => e.kind === 'extends' || e.kind === 'implements').map((e) => [e.from, e.to, e.kind]);
  return JSON.stringify([index.imports, bases, index.moduleScoped === true, index.packageScoped === true]);
}

/**
 * How `after` differs from `before` for other files (both symbol lists sorted by line, as the graph
 * holds them); undefined when the difference can reach them in any way (they are resolved again).
 */
export function shapeChange(before: FileIndex, after: FileIndex, beforeSorted: readonly SymbolInfo[], afterSorted: readonly SymbolInfo[]): ShapeChange | undefined {
  if (fileKey(before) !== fileKey(after)) return undefined;
  // The k-th symbol of a key before is its k-th after: same-named symbols keep their order.
  const slots = new Map<string, number[]>();
  afterSorted.forEach((s, i) => {
    const key = symbolKey(s);
    const list = slots.get(key);
    if (list) list.push(i);
    else slots.set(key, [i]);
  });
  const names = new Set<string>();
  const moved = beforeSorted.map((s) => {
    const next = slots.get(symbolKey(s))?.shift();
    if (next === undefined) names.add(s.name);
    return next ?? -1;
  });
  for (const [key, left] of slots) if (left.length > 0) names.add(key.slice(0, key.indexOf('\0')));
  return { names, moved };
}

/** Whether a file's index writes any of `names` (as a name or a segment of a dotted one, in its edges or imports). */
export function mentions(index: FileIndex, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  const hit = (text: string | undefined): boolean => text !== undefined && text.split('.').some((part) => names.has(part.replace(/\(\)$/, '')));
  for (const e of index.edges) if (hit(e.to) || hit(e.via)) return true;
  for (const imp of index.imports) {
    for (const [k, v] of Object.entries(imp.names)) if (names.has(k) || names.has(v)) return true;
  }
  return false;
}
