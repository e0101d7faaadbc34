/**
 * A session's checkpoints on disk: one JSON object a line, appended as things happen (a checkpoint
 * begins, a command changed paths), so a kill mid-turn loses at most the line being written and a
 * resumed session reads back every checkpoint. Folding the lines gives each checkpoint's net change
 * per path: the first `before`, the last `after`.
 *
 *   {"t":"cp","id":3,"kind":"turn","at":"…","prompt":"…","conv":{"base":2,"keep":14,"add":[…],…}}
 *   {"t":"ch","id":3,"path":"src/a.ts","before":{…}|null,"after":{…}|null,"by":"bash"}
 *   {"t":"note","id":3,"text":"node_modules/ changed (not tracked)"}
 *   {"t":"drop","ids":[1,2]}      the oldest, dropped to stay under rewind_max_mb
 *
 * A conversation is stored as the hashes of its messages, each line only the difference from the
 * checkpoint before it (how many of its messages it keeps, which it adds): a history that only grows
 * costs each message's hash once.
 */
import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { FILE_MODE } from './blob-store.js';
import type { Change, Checkpoint, CheckpointKind, ConversationRef, Entry, PathState } from './types.js';
import { sameState } from './types.js';

export interface MutableCheckpoint {
  readonly id: number;
  readonly kind: CheckpointKind;
  readonly at: string;
  readonly prompt: string;
  readonly target?: number;
  readonly conversation?: ConversationRef;
  readonly changes: Map<string, Change>;
  readonly notes: string[];
}

interface ConvLine {
  readonly base?: number;
  readonly keep: number;
  readonly add: readonly string[];
  readonly system: string;
  readonly codeMap?: string;
  readonly turns: number;
}

type Line =
  | { t: 'cp'; id: number; kind: CheckpointKind; at: string; prompt: string; target?: number; conv?: ConvLine }
  | { t: 'ch'; id: number; path: string; before: PathState; after: PathState; by: string; outside?: true }
  | { t: 'note'; id: number; text: string }
  | { t: 'drop'; ids: number[] };

/** Folds one change into a checkpoint: the first before stays, the last after wins. */
export function addChange(cp: MutableCheckpoint, path: string, before: PathState, after: PathState, by: string): void {
  const had = cp.changes.get(path);
  if (!had) {
    cp.changes.set(path, { path, before, after, by });
    return;
  }
  const names = had.by.split(', ');
  const outsideEdit = had.outsideEdit === true || !sameState(had.after, before);
  cp.changes.set(path, { path, before: had.before, after, by: names.includes(by) ? had.by : `${had.by}, ${by}`, ...(outsideEdit ? { outsideEdit } : {}) });
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === 'file' || kind === 'link' || kind === 'dir' || kind === 'unkept';
}

function parseLine(text: string): Line | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const line = value as Record<string, unknown>;
  if (line['t'] === 'cp' && typeof line['id'] === 'number' && typeof line['prompt'] === 'string') return line as Line;
  if (line['t'] === 'ch' && typeof line['id'] === 'number' && typeof line['path'] === 'string') {
    const ok = (s: unknown) => s === null || isEntry(s);
    return ok(line['before']) && ok(line['after']) ? (line as Line) : undefined;
  }
  if (line['t'] === 'note' && typeof line['id'] === 'number' && typeof line['text'] === 'string') return line as Line;
  if (line['t'] === 'drop' && Array.isArray(line['ids'])) return line as Line;
  return undefined;
}

/** The checkpoints a log holds, oldest first (dropped ones left out), and how many lines were unreadable. */
export async function readCheckpointLog(path: string): Promise<{ checkpoints: MutableCheckpoint[]; bad: number }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { checkpoints: [], bad: 0 };
  }
  const byId = new Map<number, MutableCheckpoint>();
  let bad = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const line = parseLine(raw);
    if (!line) {
      bad++;
      continue;
    }
    if (line.t === 'cp') {
      const conv = line.conv ? resolveConversation(line.conv, byId) : undefined;
      byId.set(line.id, {
        id: line.id,
        kind: line.kind === 'rewind' ? 'rewind' : 'turn',
        at: line.at,
        prompt: line.prompt,
        ...(line.target !== undefined ? { target: line.target } : {}),
        ...(conv ? { conversation: conv } : {}),
        changes: new Map(),
        notes: [],
      });
    } else if (line.t === 'ch') {
      const cp = byId.get(line.id);
      if (cp) addChange(cp, line.path, line.before, line.after, line.by);
      const folded = cp?.changes.get(line.path);
      if (cp && folded && line.outside === true) cp.changes.set(line.path, { ...folded, outsideEdit: true });
    } else if (line.t === 'note') {
      byId.get(line.id)?.notes.push(line.text);
    } else {
      for (const id of line.ids) byId.delete(id);
    }
  }
  return { checkpoints: [...byId.values()].sort((a, b) => a.id - b.id), bad };
}

function resolveConversation(conv: ConvLine, byId: ReadonlyMap<number, MutableCheckpoint>): ConversationRef | undefined {
  const base = conv.base === undefined ? [] : byId.get(conv.base)?.conversation?.messages;
  // A base that was dropped leaves this one unresolvable: its conversation cannot be restored.
  if (base === undefined || conv.keep > base.length) return undefined;
  return {
    messages: [...base.slice(0, conv.keep), ...conv.add],
    system: conv.system,
    ...(conv.codeMap !== undefined ? { codeMap: conv.codeMap } : {}),
    turns: conv.turns,
  };
}

function convLine(conv: ConversationRef, previous: ConversationRef | undefined, previousId: number | undefined): ConvLine {
  let keep = 0;
  if (previous && previousId !== undefined) {
    const limit = Math.min(previous.messages.length, conv.messages.length);
    while (keep < limit && previous.messages[keep] === conv.messages[keep]) keep++;
  }
  return {
    ...(keep > 0 ? { base: previousId } : {}),
    keep,
    add: conv.messages.slice(keep),
    system: conv.system,
    ...(conv.codeMap !== undefined ? { codeMap: conv.codeMap } : {}),
    turns: conv.turns,
  };
}

function checkpointLine(cp: Checkpoint, previous: Checkpoint | undefined): Line {
  return {
    t: 'cp',
    id: cp.id,
    kind: cp.kind,
    at: cp.at,
    prompt: cp.prompt,
    ...(cp.target !== undefined ? { target: cp.target } : {}),
    ...(cp.conversation ? { conv: convLine(cp.conversation, previous?.conversation, previous?.id) } : {}),
  };
}

/**
 * Appends to one session's log; lines are whole writes, synced at checkpoint boundaries. The file
 * is opened for each write, so a rewrite by another process (dropping old checkpoints for the
 * quota) is picked up instead of writing on into the replaced file.
 */
export class CheckpointLog {
  private last: Checkpoint | undefined;

  constructor(readonly path: string) {}

  /** The checkpoint whose conversation the next one is written against. */
  follow(cp: Checkpoint | undefined): void {
    this.last = cp?.conversation ? cp : this.last;
  }

  private async write(lines: readonly Line[]): Promise<void> {
    const handle = await open(this.path, 'a', FILE_MODE);
    try {
      await handle.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    } finally {
      await handle.close();
    }
  }

  async begin(cp: Checkpoint): Promise<void> {
    await this.write([checkpointLine(cp, this.last)]);
    this.follow(cp);
  }

  async changes(id: number, changes: readonly Change[]): Promise<void> {
    if (changes.length === 0) return;
    await this.write(changes.map((c) => ({ t: 'ch', id, path: c.path, before: c.before, after: c.after, by: c.by })));
  }

  async note(id: number, text: string): Promise<void> {
    await this.write([{ t: 'note', id, text }]);
  }

  async sync(): Promise<void> {
    let handle: FileHandle | undefined;
    try {
      handle = await open(this.path, 'r');
      await handle.sync();
    } catch {
      // Nothing written yet, or a file system that refuses: the lines are in the page cache anyway.
    } finally {
      await handle?.close();
    }
  }

  /** Writes the log anew with only `keep` (dropping the rest), atomically. */
  async rewrite(keep: readonly Checkpoint[]): Promise<void> {
    const lines: Line[] = [];
    let previous: Checkpoint | undefined;
    for (const cp of keep) {
      lines.push(checkpointLine(cp, previous));
      if (cp.conversation) previous = cp;
      for (const c of cp.changes.values()) {
        lines.push({ t: 'ch', id: cp.id, path: c.path, before: c.before, after: c.after, by: c.by, ...(c.outsideEdit ? { outside: true as const } : {}) });
      }
      for (const text of cp.notes) lines.push({ t: 'note', id: cp.id, text });
    }
    const temp = `${this.path}.${process.pid}.tmp`;
    const handle = await open(temp, 'w', FILE_MODE);
    try {
      await handle.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.path).catch(async (error: unknown) => {
      await rm(temp, { force: true });
      throw error;
    });
    this.last = previous;
  }
}
