/**
 * What the engine needs from the parts other modules provide, as narrow interfaces: the real
 * tool registry, session store and code map satisfy them structurally.
 */
import type { ToolSchema } from '../providers/types.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../tools/types.js';

export interface ToolRunner {
  schemas(): readonly ToolSchema[];
  get(name: string): ToolDefinition | undefined;
  /** The call's one-line title for the transcript (the registry asks the tool); optional for stand-ins. */
  describe?(name: string, input: unknown): string;
  /** The call's whole text (escaped) when the title clips it; optional for stand-ins. */
  detail?(name: string, input: unknown): string | undefined;
  /** Never throws: an unknown tool or bad arguments come back as an error result. */
  run(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult>;
}

/** The code map as the engine uses it (src/codemap/code-map.ts). */
export interface CodeMapPort {
  mapText(budgetTokens: number): string;
  tools(): readonly ToolDefinition[];
  fileChanged(path: string): Promise<void>;
  close(): Promise<void> | void;
}
