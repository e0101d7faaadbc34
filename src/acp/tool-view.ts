/** How a lindwyrm tool call looks to an ACP client: its kind (for the icon) and the files it touches. */
import path from 'node:path';
import type { ApprovalKind } from '../policy/types.js';
import type { ToolCallKind } from '../tools/types.js';

export type AcpToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'other';

const KINDS: Readonly<Record<string, AcpToolKind>> = {
  read_file: 'read',
  view_image: 'read',
  read_symbol: 'read',
  read_offloaded: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  delete_file: 'delete',
  bash: 'execute',
  glob: 'search',
  grep: 'search',
  list_dir: 'search',
  find_references: 'search',
  get_dependencies: 'search',
};

/** What the permission kind of a tool (ToolDefinition.kind) looks like, for a tool not named above. */
const BY_TOOL_KIND: Readonly<Record<string, AcpToolKind>> = { read: 'read', write: 'edit', delete: 'delete', bash: 'execute', none: 'read' };

/** The icon for a call: by the tool's name for the built-in ones, else by its kind (a tool added later). */
export function acpKind(tool: string, kind?: ToolCallKind | ApprovalKind): AcpToolKind {
  return KINDS[tool] ?? (kind !== undefined ? BY_TOOL_KIND[kind] : undefined) ?? 'other';
}

const field = (input: unknown, name: string): unknown =>
  typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;

/** The absolute path a call names, when it names one (`path`, or the code-map tools' `file`). */
export function callPath(tool: string, input: unknown, root: string): string | undefined {
  const raw = field(input, 'path') ?? (tool === 'read_symbol' || tool === 'find_references' || tool === 'get_dependencies' ? field(input, 'file') : undefined);
  if (typeof raw !== 'string' || raw === '') return undefined;
  return path.resolve(root, raw);
}

/** ACP's "follow along" locations: the file a call reads or changes, with a line when it has one. */
export function locationsOf(tool: string, input: unknown, root: string): { path: string; line?: number }[] {
  if (tool === 'glob' || tool === 'grep' || tool === 'list_dir' || tool === 'bash') return [];
  const where = callPath(tool, input, root);
  if (!where) return [];
  const line = field(input, 'offset') ?? field(input, 'line');
  return [{ path: where, ...(typeof line === 'number' && Number.isInteger(line) && line > 0 ? { line } : {}) }];
}
