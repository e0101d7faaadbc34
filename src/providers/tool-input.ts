/**
 * Turns a tool call's streamed argument text into an input object. A model that emits broken JSON
 * must get a tool error it can correct, not crash the turn, so failures come back as a message.
 */
import { randomBytes } from 'node:crypto';
import { clip } from './errors.js';
import { parseNearJson } from './near-json.js';
import { reclaimBefore } from '../io/reclaim-memory.js';

/**
 * For servers that send a tool call without an id: the tool result still needs one to point at.
 * Letters and digits only: some servers validate ids, and base64url's '-' and '_' gain nothing.
 */
export function generateToolId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}

export interface ParsedToolInput {
  readonly input: Readonly<Record<string, unknown>>;
  readonly inputError?: string;
  /** Set when near-JSON was repaired into the input (trailing commas, single quotes …). */
  readonly repairs?: readonly string[];
}

export function parseToolInput(text: string): ParsedToolInput {
  if (text.trim().length === 0) return { input: {} };
  let value: unknown;
  // The pieces the text was joined from are garbage now; parsing makes a second copy of it.
  reclaimBefore(text.length);
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Small models write almost-JSON; what can be read without guessing is taken, with a note.
    const near = parseNearJson(text);
    if (near && isObject(near.value)) return { input: near.value, repairs: near.repairs };
    const why = err instanceof Error ? err.message : String(err);
    return { input: {}, inputError: `The tool arguments were not valid JSON (${why}): ${clip(text)}` };
  }
  if (!isObject(value)) {
    return { input: {}, inputError: `The tool arguments must be a JSON object, got: ${clip(text)}` };
  }
  return { input: value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
