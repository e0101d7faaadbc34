/** Questions for the TypeScript checker and its answers (plain data: they cross to the index worker). */
import type { EdgeKind } from './types.js';

/** A code map symbol, as the checker finds it again: a declaration named `name` within these lines. */
export interface CheckerTarget {
  readonly file: string;
  readonly line: number;
  readonly endLine: number;
  readonly name: string;
}

export interface CheckerRequest {
  /**
   * 'warm': build the program the targets' questions need now (with no targets: the libs and global
   * files), so a question soon after is answered quickly. A warm-up gives way to any other request.
   */
  readonly op: 'references' | 'dependencies' | 'warm';
  /** With 'warm': ask these questions too and drop the answers, so the checker has their types again after an edit. */
  readonly replay?: 'references' | 'dependencies';
  readonly root: string;
  /** The project's TS/JS files, when they changed since the last request. */
  readonly files?: readonly string[];
  readonly targets: readonly CheckerTarget[];
}

/** A request as the symbol tools make it (the code map fills in the root and the file list). */
export type CheckerQuestion = Pick<CheckerRequest, 'op' | 'targets' | 'replay'>;

/** A reference (where it is written) or a dependency (where its declaration's name is). */
export interface CheckerHit {
  readonly file: string;
  readonly line: number;
  readonly kind: EdgeKind;
  /** For dependencies: the declared name. */
  readonly name?: string;
}

export interface TargetResult {
  /** False when no declaration of the target was found (the file changed since it was indexed). */
  readonly found: boolean;
  readonly hits: readonly CheckerHit[];
}

export type CheckerAnswer =
  | { readonly ok: true; readonly results: readonly TargetResult[] }
  /** `late`: the checker did not answer within the tool's budget (it goes on in the background). */
  | { readonly ok: false; readonly error: string; readonly late?: boolean };
