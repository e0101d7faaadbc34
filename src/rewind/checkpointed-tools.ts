/**
 * The tool runner with checkpoints around every call that can change files: the file tools by the
 * path they name (its state read before and after), anything else that may change things (bash,
 * a plugin's or protocol server's tool) by a scan of the project before and after. Read-only tools
 * pass straight through and cost nothing.
 */
import type { ToolRunner } from '../agent/ports.js';
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

export function withCheckpoints(runner: ToolRunner, around: () => CheckpointWrappers | undefined): ToolRunner {
  return {
    schemas: () => runner.schemas(),
    get: (name) => runner.get(name),
    async run(name, args, ctx) {
      const wrappers = around();
      const def = runner.get(name);
      // Unknown tools and read-only calls change nothing; --read-only withholds the changing ones.
      if (!wrappers || !def || def.kind === 'read' || def.kind === 'none' || ctx.readOnly) return runner.run(name, args, ctx);
      const follow = PATH_TOOLS[name];
      const path = pathArgument(args);
      if (follow !== undefined && path !== undefined) {
        return wrappers.aroundPaths([{ path, followFinal: follow }], name, () => runner.run(name, args, ctx));
      }
      return wrappers.aroundCommand(name, () => runner.run(name, args, ctx));
    },
  };
}
