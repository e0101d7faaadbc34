/** The resolved project graph: every symbol with a numeric id, and edges between ids. */
import type { EdgeKind, SymbolInfo } from './types.js';

export interface ProjectSymbol extends SymbolInfo {
  readonly id: number;
  /** Project-relative POSIX path. */
  readonly file: string;
  /** `Container.name`, or the name for top-level symbols. */
  readonly qualified: string;
}

/** A 'possible' edge: a call of a method with this name on a receiver whose type the index could not tell. */
export type GraphEdgeKind = EdgeKind | 'possible';

export interface GraphEdge {
  /** The referencing symbol's id, or -1 for a file's top level (imports, top-level statements). */
  readonly from: number;
  readonly to: number;
  readonly kind: GraphEdgeKind;
  /** Where the reference is written. */
  readonly file: string;
  readonly line: number;
}

export interface CodeGraph {
  readonly symbols: readonly ProjectSymbol[];
  readonly edges: readonly GraphEdge[];
  /** Edge indices by symbol id. */
  readonly outgoing: readonly (readonly number[])[];
  readonly incoming: readonly (readonly number[])[];
  /** Symbol ids by bare name, in id order. */
  readonly byName: ReadonlyMap<string, readonly number[]>;
  /** Symbol ids by file, in line order. */
  readonly byFile: ReadonlyMap<string, readonly number[]>;
}
