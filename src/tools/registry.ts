/**
 * The tool registry: which tools the model is offered (in a stable order, so the prompt prefix
 * stays byte-identical), and the one entry point that runs them without ever throwing.
 */
import type { Config } from '../config/types.js';
import { writeAudit } from '../policy/audit-log.js';
import { auditTarget, secretNames } from '../policy/gate.js';
import type { ToolSchema } from '../providers/types.js';
import { bashTool } from './bash.js';
import { deleteFileTool } from './delete-file.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { readOffloadedTool } from './read-offloaded.js';
import { recallTool } from './recall.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';
import { viewImageTool } from './view-image.js';
import { writeFileTool } from './write-file.js';

export interface ToolRegistry {
  schemas(): readonly ToolSchema[];
  get(name: string): ToolDefinition | undefined;
  run(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirTool,
  globTool,
  grepTool,
  deleteFileTool,
  bashTool,
  readOffloadedTool,
  recallTool,
  viewImageTool,
];

const CHANGING: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'delete_file', 'bash']);

export function createToolRegistry(opts: {
  config: Config;
  vision: boolean;
  readOnly: boolean;
  extraTools?: readonly ToolDefinition[];
}): ToolRegistry {
  const offered = BUILTIN_TOOLS.filter((tool) => {
    if (opts.readOnly && CHANGING.has(tool.name)) return false;
    if (tool.name === 'view_image' && !opts.vision) return false;
    return true;
  });
  const byName = new Map<string, ToolDefinition>();
  for (const tool of [...offered, ...(opts.extraTools ?? [])]) {
    if (!byName.has(tool.name)) byName.set(tool.name, tool);
  }
  const schemas: readonly ToolSchema[] = Object.freeze(
    [...byName.values()].map((t) => Object.freeze({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  );

  async function run(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const tool = byName.get(name);
    if (tool === undefined) {
      if ((opts.readOnly || ctx.readOnly) && CHANGING.has(name)) {
        return { ok: false, content: `Denied: lindwyrm is running with --read-only, so ${name} is not available.`, summary: `denied: ${name}` };
      }
      const known = [...byName.keys()].join(', ');
      return { ok: false, content: `Unknown tool "${name}". Available tools: ${known}.`, summary: `unknown tool ${name}` };
    }
    // A per-call context: the policy layer notes the resolved target on it for the audit log.
    const callCtx: ToolContext = { ...ctx, readOnly: ctx.readOnly || opts.readOnly };
    let result: ToolResult;
    try {
      result = await tool.run(args, callCtx);
    } catch (error) {
      // Tools are written not to throw; extra tools (plugins) may. Never let it reach the model loop.
      result = { ok: false, content: `${name} failed: ${error instanceof Error ? error.message : String(error)}`, summary: `${name} failed` };
    }
    if (tool.kind !== 'none') {
      await writeAudit(ctx.config.auditLog, {
        session: ctx.sessionId,
        tool: name,
        event: 'outcome',
        target: auditTarget(callCtx),
        status: result.quit === true || result.interrupted === true ? 'interrupted' : result.ok ? 'ok' : result.summary.startsWith('denied') ? 'denied' : 'error',
      }, secretNames(callCtx));
    }
    return result;
  }

  return {
    schemas: () => schemas,
    get: (name) => byName.get(name),
    run,
  };
}
