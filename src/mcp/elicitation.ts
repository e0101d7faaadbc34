/**
 * Elicitation answers (SEP-1034): a field the user left out that the server's schema gives a
 * default for is sent with that default, so "accept" means the values the server proposed.
 */
import { isRecord } from './protocol.js';

export function applyElicitationDefaults(schema: Record<string, unknown>, content: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...content };
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  for (const [key, prop] of Object.entries(properties)) {
    if (out[key] !== undefined || !isRecord(prop) || prop['default'] === undefined) continue;
    const value = prop['default'];
    // A default of the wrong type or outside its enum would be rejected: leave such a field out.
    const type = prop['type'];
    const fits =
      (type === 'string' && typeof value === 'string') ||
      (type === 'boolean' && typeof value === 'boolean') ||
      (type === 'number' && typeof value === 'number') ||
      (type === 'integer' && Number.isInteger(value)) ||
      (type === undefined && value !== null);
    const inEnum = !Array.isArray(prop['enum']) || prop['enum'].includes(value);
    if (fits && inEnum) out[key] = value;
  }
  return out;
}
