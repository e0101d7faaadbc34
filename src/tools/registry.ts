/**
 * The tool registry: which tools the model is offered (in a stable order, so the prompt prefix
 * stays byte-identical), and the one entry point that runs them without ever throwing.
 */
import type { Config } from '../config/types.js';
import { writeAudit } from '../policy/audit-log.js';
import type { ToolSchema } from '../providers/types.js';
import { secretEnvNames } from '../secrets/secret-names.js';
import { BUILTIN_TOOLS } from './builtin-tools.js';
import { changesThings, thrownResult } from './define-tool.js';
import { detailOfCall, titleOfCall } from './describe-call.js';
import { failure, failureOf } from './results.js';
import type { AuditNote, ToolContext, ToolDefinition, ToolResult } from './types.js';

export interface ToolRegistry {
  schemas(): readonly ToolSchema[];
  get(name: string): ToolDefinition | undefined;
  /** The call's one-line title for the transcript, from the tool's own `title`. */
  describe(name: string, input: unknown): string;
  /** The call's whole text, escaped, when its title clips it (a multi-line command). */
  detail(name: string, input: unknown): string | undefined;
  run(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult>;
}

export interface ToolRegistryOptions {
  readonly config: Config;
  readonly vision: boolean;
  readonly readOnly: boolean;
  /** Tools beyond the built-ins (the code map's, a protocol server's), offered after them. */
  readonly extraTools?: readonly ToolDefinition[];
}

/** The audit log's status word for a result. */
function auditStatus(result: ToolResult): string {
  const kind = failureOf(result);
  return kind === undefined ? 'ok' : kind === 'denied' || kind === 'interrupted' ? kind : 'error';
}

/** The audit log's outcome line for a call (the gate wrote its decision line). */
export function auditOutcome(ctx: ToolContext, tool: string, result: ToolResult, audit: AuditNote): Promise<void> {
  return writeAudit(
    ctx.config.auditLog,
    { session: ctx.sessionId, tool, event: 'outcome', target: result.target ?? audit.target, status: auditStatus(result) },
    secretEnvNames(ctx.config),
  );
}

export function createToolRegistry(opts: ToolRegistryOptions): ToolRegistry {
  const offered = [...BUILTIN_TOOLS, ...(opts.extraTools ?? [])].filter(
    (tool) => !(opts.readOnly && changesThings(tool)) && (tool.offered?.({ vision: opts.vision }) ?? true),
  );
  const byName = new Map<string, ToolDefinition>();
  for (const tool of offered) {
    if (!byName.has(tool.name)) byName.set(tool.name, tool);
  }
  const schemas: readonly ToolSchema[] = Object.freeze(
    [...byName.values()].filter((t) => t.hidden !== true).map((t) => Object.freeze({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  );
  const withheld = new Map([...BUILTIN_TOOLS, ...(opts.extraTools ?? [])].map((t) => [t.name, t]));

  async function run(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const tool = byName.get(name);
    if (tool === undefined) {
      const known = withheld.get(name);
      if ((opts.readOnly || ctx.readOnly) && known && changesThings(known)) {
        return failure(`Denied: lindwyrm is running with --read-only, so ${name} is not available.`, `denied: ${name}`, 'denied');
      }
      return failure(`Unknown tool "${name}". Available tools: ${[...byName.keys()].join(', ')}.`, `unknown tool ${name}`, 'not_found');
    }
    // A per-call context: the gate notes the target it judged on it, for the audit log.
    const audit: AuditNote = {};
    const callCtx: ToolContext = { ...ctx, readOnly: ctx.readOnly || opts.readOnly, audit };
    let result: ToolResult;
    try {
      result = await tool.run(args, callCtx);
    } catch (error) {
      // Tools are written not to throw; extra tools (plugins) may. Never let it reach the model loop.
      result = thrownResult(name, '', error);
    }
    if (tool.kind !== 'none') await auditOutcome(ctx, name, result, audit);
    return result;
  }

  return {
    schemas: () => schemas,
    get: (name) => byName.get(name),
    describe: (name, input) => titleOfCall(byName.get(name) ?? withheld.get(name), name, input),
    detail: (name, input) => detailOfCall(byName.get(name) ?? withheld.get(name), input),
    run,
  };
}
