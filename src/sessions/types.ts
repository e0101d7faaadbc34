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
}

export interface SessionSummary {
  readonly id: string;
  readonly updatedAt: string;
  readonly firstPrompt: string;
  readonly turns: number;
  readonly tokens: number;
  readonly cost: number | null;
}
