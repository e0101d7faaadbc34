/**
 * <id>.streamed: the answer text of a turn still running, appended as it streams, so a kill loses
 * at most a second of it. Saving it inside the index instead rewrote the whole text every second
 * (a 50 MB reply: gigabytes written, and three copies of it in memory at each save).
 *
 * The first line names the turn it belongs to ({"turn": startedAt, "after": afterMessages}, as the
 * index's unfinished-turn note says); every further line is one JSON string, a piece of the text.
 * A file whose header does not match the index's note is stale and ignored; a last line cut by a
 * kill does not parse and is dropped. Secrets are redacted before the text reaches the file, and
 * the last characters that could still be the start of a secret wait for the next piece.
 */
import { open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { slices } from '../io/json-pieces.js';
import { FILE_MODE } from '../io/atomic-write.js';
import { redactText, type SecretMatcher } from '../secrets/redact.js';

export interface StreamedTurn {
  readonly startedAt: string;
  readonly afterMessages: number;
}

const SLICE_CHARS = 1024 * 1024;
/** Lines are written in batches of about this many characters (chunks come 32 KB at a time). */
const BATCH_CHARS = 64 * 1024;

const headerOf = (turn: StreamedTurn): string => JSON.stringify({ turn: turn.startedAt, after: turn.afterMessages });

/** Appends to one session's file; knows which turn the file on disk holds and what it held back. */
export class StreamedWriter {
  private header: string | undefined;
  private held = '';

  constructor(private readonly path: string) {}

  /**
   * Appends `text` (redacted) for `turn`; a new turn starts the file afresh. The text may come as
   * its chunks (the turn journal's): they are written as they are, never joined into one string.
   */
  async append(turn: StreamedTurn, text: string | readonly string[], matcher: SecretMatcher): Promise<void> {
    const header = headerOf(turn);
    const fresh = header !== this.header;
    // Held back only once the write worked: a caller that retries a failed append passes the
    // same text again, which must not follow a copy of its own tail.
    let held = fresh ? '' : this.held;
    let handle: FileHandle | undefined;
    try {
      let batch: string[] = [];
      let batchChars = 0;
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return;
        handle ??= await this.open(fresh, header);
        await handle.write(batch.join(''));
        batch = [];
        batchChars = 0;
      };
      for (const part of typeof text === 'string' ? [text] : text) {
        const raw = held + part;
        const cut = safeCut(raw, matcher);
        held = raw.slice(cut);
        const piece = cut > 0 ? redactText(raw.slice(0, cut), matcher).text : '';
        // A line per slice: a long stretch of text never becomes one JSON copy of itself.
        for (const slice of slices(piece, SLICE_CHARS)) {
          const line = `${JSON.stringify(slice)}\n`;
          batch.push(line);
          batchChars += line.length;
          if (batchChars >= BATCH_CHARS) await flush();
        }
      }
      await flush();
      if (!handle && !fresh) {
        this.held = held;
        return;
      }
      handle ??= await this.open(fresh, header);
      await handle.sync();
    } finally {
      await handle?.close();
    }
    this.header = header;
    this.held = held;
  }

  private async open(fresh: boolean, header: string): Promise<FileHandle> {
    const handle = await open(this.path, fresh ? 'w' : 'a', FILE_MODE);
    try {
      if (fresh) await handle.write(`${header}\n`);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  }

  async remove(): Promise<void> {
    this.header = undefined;
    this.held = '';
    await rm(this.path, { force: true });
  }
}

/**
 * Where `text` may be cut so that no secret is split: everything before the last (longest secret
 * − 1) characters, moved back to the start of a secret that would straddle the cut.
 */
function safeCut(text: string, matcher: SecretMatcher): number {
  const longest = matcher.values[0]?.length ?? 0;
  if (longest === 0) return text.length;
  let cut = Math.max(0, text.length - (longest - 1));
  // Moving the cut back may make another value straddle it: again until none does.
  for (let moved = true; moved; ) {
    moved = false;
    for (const value of matcher.values) {
      const at = text.indexOf(value, Math.max(0, cut - value.length + 1));
      if (at !== -1 && at < cut && at + value.length > cut) {
        cut = at;
        moved = true;
      }
    }
  }
  return cut;
}

/** The text the file holds for `turn`, or '' when there is none (or it belongs to another turn). */
export async function readStreamed(path: string, turn: StreamedTurn): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return ''; // no file: nothing streamed since the last safe point was saved
  }
  const lines = text.split('\n');
  if (lines[0] !== headerOf(turn)) return '';
  const pieces: string[] = [];
  for (const line of lines.slice(1)) {
    if (!line) continue;
    try {
      const piece: unknown = JSON.parse(line);
      if (typeof piece === 'string') pieces.push(piece);
    } catch {
      break; // a line cut by a kill: what came before it is whole
    }
  }
  return pieces.join('');
}
