/**
 * "+added −removed" for a change between two states of a path, as the listing and the preview
 * show it: lines of text files only (binary, large or missing contents give no count).
 */
import { unifiedDiff } from '../tools/apply-change.js';
import { decodeText, looksBinary } from '../tools/text-file.js';
import type { BlobStore } from './blob-store.js';
import type { PathState } from './types.js';
import { absent } from '../diagnostics/ignore-error.js';

/** Past this the count is not worth reading the contents for. */
const MAX_COUNTED_BYTES = 2 << 20;

export interface LineDelta {
  readonly added: number;
  readonly removed: number;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

export function createLineCounter(blobs: BlobStore) {
  const cache = new Map<string, LineDelta | null>();

  async function textOf(state: PathState): Promise<string | null | undefined> {
    if (state === null || state.kind === 'dir' || state.kind === 'link') return null; // no lines
    if (state.kind === 'unkept' || state.size > MAX_COUNTED_BYTES) return undefined;
    const bytes = await blobs.get(state.hash).catch(absent);
    if (!bytes || looksBinary(bytes)) return undefined;
    return decodeText(bytes);
  }

  return async function lineDelta(before: PathState, after: PathState): Promise<LineDelta | undefined> {
    const key = `${before?.kind === 'file' ? before.hash : before?.kind ?? '-'}:${after?.kind === 'file' ? after.hash : after?.kind ?? '-'}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const [a, b] = await Promise.all([textOf(before), textOf(after)]);
    let delta: LineDelta | null = null;
    if (a !== undefined && b !== undefined) {
      if (a === null && b === null) delta = { added: 0, removed: 0 };
      else if (a === null) delta = { added: lineCount(b as string), removed: 0 };
      else if (b === null) delta = { added: 0, removed: lineCount(a) };
      else {
        const diff = unifiedDiff('file', a, b);
        delta = { added: diff.added, removed: diff.removed };
      }
    }
    cache.set(key, delta);
    return delta ?? undefined;
  };
}

export type LineCounter = ReturnType<typeof createLineCounter>;
