/**
 * defineTool: everything about a tool in one place — its name and description, its arguments (the
 * model's JSON schema and the checker both come from one declaration), the permission kind it
 * needs, the title of its calls in the transcript, and its handler. The wrapper gives every tool
 * the same preamble: arguments checked before the handler runs, anything thrown turned into a
 * typed failure result, and the target the gate judged attached for the audit log.
 *
 * Adding a tool: a file that exports `defineTool({...})`, and its line in builtin-tools.ts (or,
 * for tools that come and go with a session — the code map's, a protocol server's — the list
 * handed to createToolRegistry as extraTools).
 */
import type { JsonSchemaObject } from '../providers/types.js';
import { ArgumentError, asObject, objectSchema, parseArgs, type Args, type ArgSpecs, type ParsedArgs } from './args.js';
import { errnoFailure, failure } from './results.js';
import type { AuditNote, ToolCallKind, ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Kinds whose calls change files or run things: withheld under --read-only. */
export const CHANGING_KINDS: ReadonlySet<ToolCallKind> = new Set<ToolCallKind>(['write', 'delete', 'bash']);

/** Whether calls of this tool may change something (its own say, else its kind's). */
export function changesThings(tool: Pick<ToolDefinition, 'kind' | 'changes'>): boolean {
  return tool.changes ?? CHANGING_KINDS.has(tool.kind);
}

interface ToolSpecBase {
  readonly name: string;
  readonly description: string;
  readonly kind: ToolCallKind;
  /** Eligible for offloading on arrival; default false. */
  readonly bulk?: boolean;
  /** Whether calls may change something, when the kind alone does not say (see changesThings). */
  readonly changes?: boolean;
  /** The call's detail for the transcript, from its raw input; default its path, name or file. */
  readonly title?: (input: Args) => string | undefined;
  /** The call's whole text when the title shows only part of it (a multi-line command); default none. */
  readonly detail?: (input: Args) => string | undefined;
  /** Whether a session offers the tool at all; default always. */
  readonly offered?: (session: { readonly vision: boolean }) => boolean;
  /** Callable but left out of the schemas (see ToolDefinition.hidden). */
  readonly hidden?: boolean;
}

/** A tool whose arguments are declared with `arg` (src/tools/args.ts). */
export interface DeclaredToolSpec<S extends ArgSpecs> extends ToolSpecBase {
  readonly args: S;
  /** Adds `additionalProperties: false` to the schema; default true. */
  readonly closed?: boolean;
  /** What an I/O error names ('src/a.ts: no such file or directory'); default the path argument. */
  readonly subject?: (args: ParsedArgs<S>) => string;
  run(args: ParsedArgs<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool whose schema comes from elsewhere (a protocol server): it gets the object as sent. */
export interface SchemaToolSpec extends ToolSpecBase {
  readonly inputSchema: JsonSchemaObject;
  run(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

/** The string value of `input[name]`, if it is a non-empty string. */
export function stringField(input: Args, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function defaultTitle(input: Args): string | undefined {
  return stringField(input, 'path') ?? stringField(input, 'name') ?? stringField(input, 'file');
}

/** What a thrown error becomes: bad arguments, a known I/O error, or a plain failure. */
export function thrownResult(tool: string, subject: string, error: unknown): ToolResult {
  if (error instanceof ArgumentError) return failure(`${tool}: ${error.message}`, `bad arguments: ${error.message}`, 'invalid_args');
  const err = error as NodeJS.ErrnoException;
  const known = typeof err?.code === 'string' ? errnoFailure(err, subject) : undefined;
  if (known) return failure(`${tool} failed: ${known.message}`, undefined, known.kind);
  return failure(`${tool} failed: ${err instanceof Error ? err.message : String(error)}`);
}

export function defineTool<S extends ArgSpecs>(spec: DeclaredToolSpec<S>): ToolDefinition;
export function defineTool(spec: SchemaToolSpec): ToolDefinition;
export function defineTool<S extends ArgSpecs>(spec: DeclaredToolSpec<S> | SchemaToolSpec): ToolDefinition {
  const declared = 'args' in spec ? spec : undefined;
  const inputSchema = declared ? objectSchema(declared.args, declared.closed !== false) : (spec as SchemaToolSpec).inputSchema;
  const handle = spec.run as (args: unknown, ctx: ToolContext) => Promise<ToolResult>;
  return {
    name: spec.name,
    description: spec.description,
    inputSchema,
    kind: spec.kind,
    bulk: spec.bulk ?? false,
    ...(spec.changes !== undefined ? { changes: spec.changes } : {}),
    title: spec.title ?? defaultTitle,
    ...(spec.detail ? { detail: spec.detail } : {}),
    ...(spec.offered ? { offered: spec.offered } : {}),
    ...(spec.hidden ? { hidden: true } : {}),
    async run(input, ctx) {
      // One note per call: the gate records what it judged, and the result carries it out.
      const audit: AuditNote = ctx.audit ?? {};
      const callCtx: ToolContext = ctx.audit ? ctx : { ...ctx, audit };
      let subject = '';
      let result: ToolResult;
      try {
        const args = declared ? parseArgs(declared.args, input) : asObject(input);
        subject = declared?.subject ? declared.subject(args as ParsedArgs<S>) : (stringField(args as Args, 'path') ?? '');
        result = await handle(args, callCtx);
      } catch (error) {
        result = thrownResult(spec.name, subject, error);
      }
      return audit.target !== undefined && result.target === undefined ? { ...result, target: audit.target } : result;
    },
  };
}
