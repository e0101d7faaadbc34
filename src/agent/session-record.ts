/** Between the engine's SessionData and the store's SessionRecord, both ways. */
import { SESSION_FORMAT_VERSION, type SessionRecord } from '../sessions/types.js';
import type { SessionData, SessionRuntime } from './runtime.js';
import { readUnfinishedTurn } from './unfinished-turn.js';

/** A saved marker is reused only when it has the shape newSessionMarker gives (the file is data). */
function savedMarker(marker: unknown): string | undefined {
  return typeof marker === 'string' && /^lw-[0-9a-f]{8,64}$/.test(marker) ? marker : undefined;
}

export function recordToData(record: SessionRecord): SessionData {
  const marker = savedMarker(record.marker);
  const unfinishedTurn = readUnfinishedTurn(record.unfinishedTurn);
  return {
    id: record.id,
    createdAt: record.createdAt,
    firstPrompt: record.firstPrompt,
    turns: record.turns,
    history: [...record.messages],
    usage: record.usage,
    cost: record.cost,
    ...(marker ? { marker } : {}),
    ...(typeof record.codeMapText === 'string' ? { savedCodeMap: { text: record.codeMapText, preset: record.preset, model: record.model } } : {}),
    ...(unfinishedTurn ? { unfinishedTurn } : {}),
  };
}

export function recordOf(r: SessionRuntime, offloadRefs: readonly string[], now: Date = new Date()): SessionRecord {
  return {
    formatVersion: SESSION_FORMAT_VERSION,
    id: r.session.id,
    projectRoot: r.config.projectRoot,
    preset: r.preset.name,
    model: r.preset.model,
    createdAt: r.session.createdAt,
    updatedAt: now.toISOString(),
    firstPrompt: r.session.firstPrompt,
    turns: r.session.turns,
    messages: r.session.history,
    usage: r.session.usage,
    cost: r.session.cost,
    offloadRefs,
    marker: r.marker,
    ...(r.codeMapText !== undefined ? { codeMapText: r.codeMapText } : {}),
    ...(r.session.unfinishedTurn ? { unfinishedTurn: r.session.unfinishedTurn } : {}),
  };
}
