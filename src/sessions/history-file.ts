/**
 * The history file: one JSON message per line. It only ever grows in place; the index (meta file)
 * names how many bytes of it are committed, so bytes past that point (an append cut short by a
 * kill) are ignored on read and cut off before the next append.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { Message } from '../providers/types.js';
import { FILE_MODE } from '../io/atomic-write.js';
import { slices } from '../io/json-pieces.js';
import { SessionFileError } from './errors.js';
import { faultHere, faultKill } from '../diagnostics/fault-point.js';
import { readPrivateFileSync } from './permissions.js';

/**
 * A line too long to exist as one string (a message holding a reply of many megabytes): its text
 * in pieces, made again each time it is written.
 */
export interface PiecedLine {
  pieces(): Iterable<string>;
}

export type HistoryLine = string | PiecedLine;

/**
 * Appends lines after the committed prefix; returns the new committed length in bytes. Not
 * `durable`: written (a killed process loses nothing) but not fsynced; the next durable append
 * syncs the file, these lines included.
 */
export async function appendHistory(path: string, committedBytes: number, lines: readonly HistoryLine[], durable = true): Promise<number> {
  // O_APPEND: after cutting the uncommitted tail, every write lands exactly at the committed end.
  const handle = await open(path, 'a+', FILE_MODE);
  try {
    const { size } = await handle.stat();
    if (size < committedBytes) {
      throw new SessionFileError(path, `history is shorter than its index says (${size} of ${committedBytes} bytes)`);
    }
    if (size > committedBytes) await handle.truncate(committedBytes);
    if (lines.length === 0) return committedBytes;
    let total = 0;
    let first = true;
    for (const chunk of byteSlices(lines)) {
      if (first && faultHere('session.mid-append')) {
        await handle.write(chunk, 0, chunk.length >> 1);
        faultKill();
      }
      first = false;
      total += await writeAll(handle, chunk);
    }
    if (durable) await handle.sync();
    return committedBytes + total;
  } finally {
    await handle.close();
  }
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<number> {
  let written = 0;
  while (written < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, written, chunk.length - written);
    written += bytesWritten;
  }
  return chunk.length;
}

const SLICE_CHARS = 1024 * 1024;

/**
 * The lines, each ending in '\n', as buffers of about a megabyte: a message of many megabytes (a
 * long reply) is never copied whole into one joined string and then one buffer beside itself.
 */
function* byteSlices(lines: readonly HistoryLine[]): Generator<Buffer> {
  let small: string[] = [];
  let smallChars = 0;
  for (const line of lines) {
    if (typeof line === 'string' && line.length < SLICE_CHARS) {
      small.push(line, '\n');
      smallChars += line.length + 1;
      if (smallChars >= SLICE_CHARS) {
        yield Buffer.from(small.join(''), 'utf8');
        small = [];
        smallChars = 0;
      }
      continue;
    }
    if (small.length > 0) yield Buffer.from(small.join(''), 'utf8');
    small = [];
    smallChars = 0;
    // Never between the halves of a surrogate pair: each slice must encode on its own.
    for (const piece of typeof line === 'string' ? [line] : line.pieces()) {
      for (const slice of slices(piece, SLICE_CHARS)) yield Buffer.from(slice, 'utf8');
    }
    yield Buffer.from('\n', 'utf8');
  }
  if (small.length > 0) yield Buffer.from(small.join(''), 'utf8');
}

/** Writes a complete new history file (a new generation, unreferenced until the index is renamed in). */
export async function writeHistory(path: string, lines: readonly HistoryLine[], durable = true): Promise<number> {
  const handle = await open(path, 'w', FILE_MODE);
  try {
    let total = 0;
    for (const chunk of byteSlices(lines)) total += await writeAll(handle, chunk);
    if (durable) await handle.sync();
    return total;
  } finally {
    await handle.close();
  }
}

export interface ReadHistory {
  readonly messages: Message[];
  readonly lines: string[];
  /** Set when the file was looser than 0600 and was tightened. */
  readonly repaired?: string;
}

/** Reads the committed prefix and checks every line is a message. */
export async function readHistory(path: string, bytes: number, count: number): Promise<ReadHistory> {
  const { data: buffer, repaired } = readPrivateFileSync(path);
  if (buffer.length < bytes) {
    throw new SessionFileError(path, `history is shorter than its index says (${buffer.length} of ${bytes} bytes)`);
  }
  const text = buffer.subarray(0, bytes).toString('utf8');
  const lines = text.length === 0 ? [] : text.slice(0, -1).split('\n');
  if (text.length > 0 && !text.endsWith('\n')) {
    throw new SessionFileError(path, 'history does not end where its index says');
  }
  if (lines.length !== count) {
    throw new SessionFileError(path, `history has ${lines.length} messages, its index says ${count}`);
  }
  const messages: Message[] = new Array<Message>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    messages[i] = parseMessage(path, lines[i]!, i + 1);
  }
  return { messages, lines, repaired };
}

function parseMessage(path: string, line: string, lineNo: number): Message {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new SessionFileError(path, `line ${lineNo} is not valid JSON (${(error as Error).message})`);
  }
  if (!isMessageShape(value)) {
    throw new SessionFileError(path, `line ${lineNo} is not a message (needs role user|assistant and a content array)`);
  }
  return value;
}

function isMessageShape(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { role?: unknown; content?: unknown };
  if (v.role !== 'user' && v.role !== 'assistant') return false;
  if (!Array.isArray(v.content)) return false;
  return v.content.every((b: unknown) => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string');
}
