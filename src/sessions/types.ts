/** What a saved session holds, and the store that keeps them. */
import type { Message, Usage } from '../providers/types.js';

export const SESSION_FORMAT_VERSION = 1;

export interface SessionRecord {
  readonly formatVersion: number;
  readonly id: string;
  /** Real path of the project root it ran in. */
  readonly projectRoot: string;
  readonly preset: string;
  readonly model: string;
  /** ISO timestamps. */
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly firstPrompt: string;
  readonly turns: number;
  /** The already-compacted history. */
  readonly messages: readonly Message[];
  readonly usage: Usage;
  readonly cost: number | null;
  /** Refs of offloaded results this history points at; the store keeps them alongside. */
  readonly offloadRefs: readonly string[];
  /**
   * The per-session marker the stubs and summaries in `messages` carry. Restore it on resume: a new
   * one would no longer recognise those stubs, and would change the system prompt (a cache miss
   * on the whole history).
   */
  readonly marker?: string;
  /**
   * The code map text inside the session's system prompt, exactly as sent ('' when the prompt went
   * without one, the index not being ready yet); absent when the code map was off. A resume with
   * the same preset and model sends it again byte for byte, so the provider's prompt cache still
   * hits after the code changed. Stored in <id>.map.json beside the index, not in it.
   */
  readonly codeMapText?: string;
  /**
   * Present while a turn runs (src/agent/unfinished-turn.ts): when it started, and the answer text
   * streamed since the last safe point. A saved session that still has it ended mid-turn.
   */
  readonly unfinishedTurn?: { readonly startedAt: string; readonly streamed: string; readonly afterMessages: number };
}

export interface SessionSummary {
  readonly id: string;
  readonly updatedAt: string;
  readonly firstPrompt: string;
  readonly turns: number;
  readonly tokens: number;
  readonly cost: number | null;
}

/** Options for createSessionStore (src/sessions/session-store.ts). */
export interface SessionStoreOptions {
  /** appPaths().sessionsDir; each project gets a subfolder named by a hash of its real path. */
  readonly dir: string;
  readonly projectRoot: string;
  /** appPaths().offloadDir: a session's offloads live in <offloadDir>/<sessionId>/ and go with it. */
  readonly offloadDir?: string;
  /**
   * Values (API keys, header values, proxy URLs or passwords) that must never reach disk: redacted
   * on save. A function is asked at every save, for keys resolved after the store was created.
   */
  readonly secrets?: readonly string[] | (() => readonly string[]);
  /** Called with a plain-words notice (a redaction, a repaired permission, a swept session). */
  readonly onNotice?: (line: string) => void;
  /** Called when a session is removed (swept or deleted): what is kept beside it (its checkpoints) goes too. */
  readonly onRemoved?: (id: string) => Promise<void>;
}

export interface SessionList {
  /** This project's sessions, newest activity first. */
  readonly sessions: readonly SessionSummary[];
  /** Files that could not be read, each named with what is wrong; they are skipped, never rewritten. */
  readonly problems: readonly string[];
}

export interface SweepResult {
  readonly removed: readonly string[];
  readonly problems: readonly string[];
}

/**
 * Saved sessions of one project. Errors are typed (src/sessions/errors.ts): SessionLookupError
 * (unknown or ambiguous id; exit 2), SessionLockedError (held by a live process), SessionFileError
 * (a file that is corrupt, newer or unreadable; never overwritten).
 */
export interface SessionStore {
  /** Real path of the project root the store is scoped to. */
  readonly projectRoot: string;
  /** Fresh id, unused in this project. */
  newId(): string;
  /**
   * Crash-safe; takes the session's lock on first save. Appends when the history only grew.
   * `durable: false` writes without the fsyncs: a killed process loses nothing, a power cut may
   * lose this save until the next durable one (the prompt saved just before its request).
   */
  save(record: SessionRecord, opts?: { readonly durable?: boolean }): Promise<void>;
  /**
   * Readies a session's first save while nothing waits for it: the folders, the session's lock,
   * and whether its index exists yet, so that save only writes its files. The lock is held from
   * now on (close() or unlock() releases it; a sweep removes one a killed process left without
   * an index). Throws SessionLockedError as lock() does.
   */
  prepare(id: string): Promise<void>;
  /**
   * Appends answer text streamed in the running turn (the record's unfinishedTurn names it) to a
   * file beside the index, so saving it costs the new text only; load() puts it back into the
   * record's unfinishedTurn.streamed.
   */
  appendStreamed(id: string, turn: { readonly startedAt: string; readonly afterMessages: number }, text: string | readonly string[]): Promise<void>;
  /** The turn ended (its text is in the history): the streamed file goes. */
  clearStreamed(id: string): Promise<void>;
  list(): Promise<SessionList>;
  /** By full id or unique prefix. */
  load(idOrPrefix: string): Promise<SessionRecord>;
  /** The session last worked in (by updatedAt), skipping unreadable ones. */
  latest(): Promise<SessionRecord | undefined>;
  delete(id: string): Promise<void>;
  /** Removes sessions idle for more than retentionDays (never keepId, never a live-locked one). */
  sweep(retentionDays: number, keepId?: string): Promise<SweepResult>;
  /** Throws SessionLockedError when another live process holds it; takes over a dead one's lock. */
  lock(id: string): Promise<void>;
  unlock(id: string): Promise<void>;
  /** Releases every lock this store holds (call at exit). */
  close(): Promise<void>;
}
