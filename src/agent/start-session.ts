/**
 * The engine's entry point for the CLI: a session with the real tool registry and code map.
 */
import { join } from 'node:path';
import type { CliOptions } from '../cli/options.js';
import type { Config } from '../config/types.js';
import type { Approver } from '../policy/types.js';
import { createToolRegistry } from '../tools/registry.js';
import { assembleSession, type SessionDeps } from './assemble-session.js';
import type { LindwyrmEngine, ToolDelegates } from './engine.js';

export interface SessionHooks {
  /** Answers approvals (one-shot's prompt); without it the view answers through the store. */
  readonly approver?: Approver;
  /** One-shot: the note for the model after a denial without a terminal. */
  readonly takeDenialNote?: () => string | undefined;
  /** The verbose log's sink (one-shot's stderr); default stderr when --verbose. */
  readonly log?: (line: string) => void;
  /** One-shot: how long the end of the session waits for the code map to write its cache. */
  readonly codeMapGraceMs?: () => number;
  /** ACP: the editor's file and terminal access. */
  readonly delegates?: ToolDelegates;
}

export { warmHttpClient } from '../providers/warm-http.js';

export async function startSession(cli: CliOptions, config: Config, hooks: SessionHooks = {}): Promise<LindwyrmEngine> {
  return assembleSession(cli, config, realSessionDeps(hooks));
}

/** How long after the code map opens the checker's compiler and libraries load (in the background). */
const CHECKER_WARM_UP_MS = 3000;

/** The real tool registry and code map; tests add their env and knobs to the same wiring. */
export function realSessionDeps(hooks: SessionHooks = {}): SessionDeps {
  return {
    createTools: (opts) => createToolRegistry(opts),
    // Loaded only when the code map is on: `code_map = false` (and one-shot runs that turn it
    // off) never load the indexer and its plugins.
    // The cache folder is the session's (from its env), one per project as codeMapCacheDirFor names it.
    openCodeMap: async ({ projectRoot, cacheDir, config: c, onProgress }) => {
      const { CHECKER_BUDGET_MS, CODE_CACHE_FOLDER, openCodeMap, workspaceHash } = await import('../codemap/code-map.js');
      return openCodeMap({
        projectRoot, cacheDir: join(cacheDir, workspaceHash(projectRoot)), config: c, ...(onProgress ? { onProgress } : {}),
        // A session still open after a few seconds will likely ask who uses what: get the checker's compiler ready.
        warmCheckerAfterMs: CHECKER_WARM_UP_MS,
        // A symbol tool never blocks the turn on a cold checker: past this it answers from the syntax index, marked partial.
        checkerBudgetMs: CHECKER_BUDGET_MS,
        // The index is built while the user types and turns run: its parse workers step back for them.
        backgroundIndexing: true,
        codeCacheDir: join(cacheDir, CODE_CACHE_FOLDER),
      });
    },
    // The symbol tools' names and schemas, for a session that starts before the index is ready;
    // their calls go to the real tools once it is (src/agent/late-code-map.ts).
    codeMapToolShapes: async (projectRoot) => {
      const [{ readSymbolTool }, { findReferencesTool }, { getDependenciesTool }] = await Promise.all([
        import('../codemap/read-symbol-tool.js'),
        import('../codemap/find-references-tool.js'),
        import('../codemap/get-dependencies-tool.js'),
      ]);
      const notReady = {
        root: projectRoot,
        graph: (): never => {
          throw new Error('the code map is still indexing');
        },
        ensureFresh: async () => undefined,
      };
      return [readSymbolTool(notReady), findReferencesTool(notReady), getDependenciesTool(notReady)];
    },
    ...(hooks.approver ? { approver: hooks.approver } : {}),
    ...(hooks.takeDenialNote ? { takeDenialNote: hooks.takeDenialNote } : {}),
    ...(hooks.log ? { log: hooks.log } : {}),
    ...(hooks.codeMapGraceMs ? { codeMapGraceMs: hooks.codeMapGraceMs } : {}),
    ...(hooks.delegates ? { delegates: hooks.delegates } : {}),
  };
}
