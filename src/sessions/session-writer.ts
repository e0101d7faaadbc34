/**
 * Saving one session. Per turn the history usually only grows, so the new messages are appended
 * to the history file and a small index is renamed over the old one: the cost is that of the turn,
 * not of the whole session. When earlier messages changed (a summary replaced them) the history is
 * written whole to a new generation file, and the index is switched to it in one rename.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Message } from '../providers/types.js';
import { syncWritten, writeFileAtomic } from '../io/atomic-write.js';
import { writeCodeMapFile, type CodeMapPointer } from './code-map-file.js';
import { appendHistory, writeHistory, type HistoryLine } from './history-file.js';
import { holdsChars, jsonPieces } from '../io/json-pieces.js';
import { codeMapName, historyName, metaName } from './layout.js';
import { buildMeta } from './meta-file.js';
import { holdsSecret, redactJson, type SecretMatcher } from '../secrets/redact.js';
import type { SessionRecord } from './types.js';

/** What is on disk for a session, as this process last wrote or read it. */
export interface Committed {
  readonly gen: number;
  readonly bytes: number;
  /** The message objects written, to recognise an unchanged prefix by identity without re-serializing. */
  readonly messages: readonly Message[];
  /**
   * A digest of each line written, to recognise an equal line from another object. The lines
   * themselves are not kept: that was a second copy of the whole session (a 50 MB reply's JSON)
   * for as long as the process lived.
   */
  readonly digests: readonly string[];
  /** The code map text on disk and the index's pointer to its file. */
  readonly codeMap?: { readonly text: string; readonly pointer: CodeMapPointer; readonly synced: boolean };
}

export interface WriteContext {
  readonly projectDir: string;
  readonly projectRoot: string;
  readonly matcher: SecretMatcher;
  readonly notice: (line: string) => void;
}

/**
 * Writes `record`. `previous` is the committed state this process knows is on disk (undefined to
 * write everything); `diskGen` the generation the current index names, removed once replaced.
 */
export async function writeSession(
  ctx: WriteContext,
  record: SessionRecord,
  previous: Committed | undefined,
  diskGen: number | undefined,
  durable = true,
): Promise<Committed> {
  let redactions = 0;
  const serialize = (value: unknown): string => {
    const { text, hits } = redactJson(JSON.stringify(value), ctx.matcher);
    redactions += hits;
    return text;
  };
  // A copy: callers keep pushing onto the array they saved (the engine's live history).
  const messages = record.messages.slice();
  // A message of many megabytes is written in pieces, never as one string of its JSON; one holding
  // a secret goes the usual way (redactJson), which finds and replaces it.
  const lineOf = (m: Message): HistoryLine => (holdsChars(m, BIG_LINE_CHARS) && !holdsSecret(m, ctx.matcher) ? piecedLine(m) : serialize(m));
  // Lines only for messages not known to be on disk as they are; digests for all.
  const lines: (HistoryLine | undefined)[] = messages.map((m, i) => (previous !== undefined && previous.messages[i] === m ? undefined : lineOf(m)));
  const digests = messages.map((_, i) => {
    const line = lines[i];
    return line === undefined ? previous!.digests[i]! : digestOf(line);
  });

  let gen: number;
  let history: () => Promise<number>;
  // A new generation that replaces an old one (removed below) is durable whatever was asked, or a
  // power cut could leave an index naming a file whose bytes never reached disk in place of one
  // that had. A new session's first generation replaces nothing: it is written as asked, as an
  // append is, and its next durable save syncs the file.
  let durableNow = durable;
  if (previous !== undefined && extendsPrefix(previous.digests, digests)) {
    gen = previous.gen;
    const added = lines.slice(previous.digests.length).map((line, i) => line ?? lineOf(messages[previous.digests.length + i]!));
    history = () => appendHistory(join(ctx.projectDir, historyName(record.id, gen)), previous.bytes, added, durable);
  } else {
    gen = Math.max(previous?.gen ?? 0, diskGen ?? 0) + 1;
    if (previous !== undefined || diskGen !== undefined) durableNow = true;
    const whole = lines.map((line, i) => line ?? lineOf(messages[i]!));
    history = () => writeHistory(join(ctx.projectDir, historyName(record.id, gen)), whole, durableNow);
  }

  // The map file beside the history, both before the index, so the index never names one that is
  // not there. It changes only when the prompt's map did (a summary, /model), not per turn; one
  // written without its fsync (a first save before a request) is synced by the next durable save.
  let codeMap: Committed['codeMap'];
  const text = record.codeMapText;
  const mapPath = join(ctx.projectDir, codeMapName(record.id));
  const mapWrite = async (): Promise<void> => {
    if (text === undefined) return;
    const kept = previous?.codeMap?.text === text ? previous.codeMap : undefined;
    if (kept && (kept.synced || !durableNow)) codeMap = kept;
    else if (kept) codeMap = (await syncWritten([mapPath]), { ...kept, synced: true });
    else codeMap = { text, pointer: await writeCodeMapFile(mapPath, text, serialize, durableNow), synced: durableNow };
  };
  const [bytes] = await Promise.all([history(), mapWrite()]);
  const meta = buildMeta(ctx.projectRoot, record, { gen, bytes, count: messages.length }, codeMap?.pointer);
  // Leftover temps are swept by durable saves: the one before a request does nothing it need not.
  await writeFileAtomic(join(ctx.projectDir, metaName(record.id)), serialize(meta) + '\n', { durable: durableNow, sweep: durableNow });

  for (const old of new Set([previous?.gen, diskGen])) {
    if (old !== undefined && old !== gen) await rm(join(ctx.projectDir, historyName(record.id, old)), { force: true });
  }
  if (redactions > 0) {
    ctx.notice(`session ${record.id}: redacted ${redactions} occurrence(s) of a secret (API key, header or proxy credential) before saving`);
  }
  return { gen, bytes, messages, digests, ...(codeMap ? { codeMap } : {}) };
}

/** Past this many characters of strings, a message's line is written in pieces. */
const BIG_LINE_CHARS = 1024 * 1024;

/** The line of a message of many megabytes: JSON.stringify's text, made again on each write. */
function piecedLine(message: Message): HistoryLine {
  return { pieces: () => jsonPieces(message) };
}

/** Lines of equal text have equal digests (a collision of SHA-1 by chance is not a concern here). */
export function digestOf(line: HistoryLine): string {
  const hash = createHash('sha1');
  if (typeof line === 'string') hash.update(line);
  else for (const piece of line.pieces()) hash.update(piece);
  return hash.digest('base64');
}

function extendsPrefix(before: readonly string[], after: readonly string[]): boolean {
  if (after.length < before.length) return false;
  for (let i = before.length - 1; i >= 0; i--) {
    if (before[i] !== after[i]) return false;
  }
  return true;
}
