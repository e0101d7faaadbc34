/**
 * The small tool profile for small local models: fewer tools (the symbol tools first, then
 * read/edit/bash), one-line descriptions and schemas without per-argument prose: about 650 tokens
 * where the full set takes 1,850, which a 4K-token window cannot spare. The full profile is the
 * registry's own list, untouched. Either is fixed for the session, like the system prompt.
 */
import type { ToolProfile } from '../config/types.js';
import type { JsonSchemaObject, ToolSchema } from '../providers/types.js';
import type { ToolRunner } from './ports.js';

/** The small set, in the order offered; tools not listed here and not dropped (plugins, MCP) follow. */
const SMALL: ReadonlyMap<string, string> = new Map([
  ['read_symbol', 'Show the source of one function, class or method by name (e.g. "parseConfig", "Session.save").'],
  ['find_references', 'List where a symbol is used, as file:line.'],
  ['get_dependencies', 'Show what a symbol calls and uses.'],
  ['read_file', 'Read a file with line numbers; offset (first line) and limit read part of it.'],
  ['edit_file', 'Replace old_string, copied exactly and matching once, with new_string in a file.'],
  ['bash', 'Run a shell command in the project root; returns its output and exit code.'],
  ['write_file', 'Create a file or replace its whole contents.'],
  ['grep', 'Search file contents with a regular expression; prints path:line:text.'],
  ['read_offloaded', 'Read back an offloaded result or archived turn by its ref (off_0001, arc_0001).'],
  ['recall', 'Search earlier turns a summary replaced: words, or /regex/.'],
  ['view_image', 'Look at an image file.'],
]);

/** Left out of the small set: bash and the others cover them. */
const DROPPED: ReadonlySet<string> = new Set(['list_dir', 'glob', 'delete_file']);

export function applyToolProfile(tools: ToolRunner, profile: ToolProfile | undefined): ToolRunner {
  if (profile !== 'small') return tools;
  const all = tools.schemas();
  const byName = new Map(all.map((s) => [s.name, s]));
  const listed = [...SMALL.keys()].flatMap((name) => {
    const s = byName.get(name);
    return s ? [Object.freeze({ name, description: SMALL.get(name)!, inputSchema: bareSchema(s.inputSchema) })] : [];
  });
  const others = all.filter((s) => !SMALL.has(s.name) && !DROPPED.has(s.name));
  const schemas: readonly ToolSchema[] = Object.freeze([...listed, ...others]);
  // Calls to a tool left out still run: a small model that remembers list_dir gets its answer.
  return {
    schemas: () => schemas,
    get: (name) => tools.get(name),
    ...(tools.describe ? { describe: (name: string, input: unknown) => tools.describe!(name, input) } : {}),
    run: (name, args, ctx) => tools.run(name, args, ctx),
  };
}

/** The schema with its per-argument descriptions left out (names and types say enough). */
function bareSchema(schema: JsonSchemaObject): JsonSchemaObject {
  const properties: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema.properties)) {
    if (typeof value === 'object' && value !== null) {
      const { description: _omit, ...rest } = value as Record<string, unknown>;
      properties[key] = rest;
    } else properties[key] = value;
  }
  return { type: 'object', properties, ...(schema.required ? { required: schema.required } : {}) };
}
