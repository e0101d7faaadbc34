/**
 * The tool runner with checkpoints around every call that can change files: the file tools by the
 * path they name (its state read before and after), anything else that may change things (bash,
 * a plugin's or protocol server's tool) by a scan of the project before and after. Read-only tools
 * pass straight through and cost nothing.
 */
import type { ToolRunner } from '../agent/ports.js';
import type { ToolDefinition } from '../tools/types.js';
import type { PathTarget } from './session-checkpoints.js';

/** The tools that change exactly the path they are given, and whether they follow a final symlink. */
const PATH_TOOLS: Readonly<Record<string, boolean>> = { write_file: true, edit_file: true, delete_file: false };

export interface CheckpointWrappers {
  aroundPaths<T>(targets: readonly PathTarget[], by: string, run: () => Promise<T>): Promise<T>;
  aroundCommand<T>(by: string, run: () => Promise<T>): Promise<T>;
}

function pathArgument(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const path = (args as Record<string, unknown>)['path'];
  return typeof path === 'string' && path !== '' ? path : undefined;
}

/**
 * Whether a tool's calls may change files: its own say when it has one, else anything but a
 * read-only kind — a protocol server's or a skill's tool ('other') may write anywhere, so it is
 * scanned around like a command.
 */
function mayChange(def: ToolDefinition): boolean {
  return def.changes ?? (def.kind !== 'read' && def.kind !== 'none');
}

export function withCheckpoints(runner: ToolRunner, around: () => CheckpointWrappers | undefined): ToolRunner {
  return {
    schemas: () => runner.schemas(),
    get: (name) => runner.get(name),
    ...(runner.describe ? { describe: (name: string, input: unknown) => runner.describe!(name, input) } : {}),
    ...(runner.detail ? { detail: (name: string, input: unknown) => runner.detail!(name, input) } : {}),
    async run(name, args, ctx) {
      const wrappers = around();
      const def = runner.get(name);
      // Unknown tools and read-only calls change nothing; --read-only withholds the changing ones.
      if (!wrappers || !def || !mayChange(def) || ctx.readOnly) return runner.run(name, args, ctx);
      const follow = PATH_TOOLS[name];
      const path = pathArgument(args);
      if (follow !== undefined && path !== undefined) {
        return wrappers.aroundPaths([{ path, followFinal: follow }], name, () => runner.run(name, args, ctx));
      }
      return wrappers.aroundCommand(name, () => runner.run(name, args, ctx));
    },
  };
}
