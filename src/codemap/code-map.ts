/** The code map: a ranked, signatures-only map of the project for the system prompt, and symbol tools. */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { appPaths } from '../config/paths.js';
import type { Config } from '../config/types.js';
import type { ToolDefinition } from '../tools/types.js';
import { createEditIndexer } from './edit-worker.js';
import { findEntryFiles } from './entry-points.js';
import { findReferencesTool } from './find-references-tool.js';
import { getDependenciesTool } from './get-dependencies-tool.js';
import type { ProjectSymbol } from './graph-types.js';
import { renderMap } from './map-text.js';
import { loadPlugins } from './load-plugins.js';
import { MAP_RENDER_VERSION, openMapCache } from './map-cache.js';
import { openProjectIndex, type OpenStats } from './project-index.js';
import { scoreSymbols } from './rank.js';
import { readSymbolTool } from './read-symbol-tool.js';
import { chooseRunner, WORKER_MIN_JOBS, type WorkerChoice } from './worker-runner.js';
import { absent } from '../diagnostics/ignore-error.js';

export interface CodeMap {
  /** The map cut to `budgetTokens`; the same index gives the same bytes. */
  mapText(budgetTokens: number): string;
  /** read_symbol, find_references, get_dependencies. */
  tools(): readonly ToolDefinition[];
  /** Re-indexes one file now (the agent wrote or deleted it). */
  fileChanged(path: string): Promise<void>;
  /** Writes the cache; the map is unusable afterwards. */
  close(): Promise<void>;
  /** Every indexed symbol, in file and line order (for panels and benchmarks). */
  symbols(): readonly ProjectSymbol[];
  /** Problems met while opening: a corrupt cache, a plugin that failed on a file. */
  readonly warnings: readonly string[];
  readonly stats: OpenStats;
}

export interface OpenCodeMapOptions {
  readonly projectRoot: string;
  readonly cacheDir: string;
  readonly config: Config;
  readonly onProgress?: (done: number, total: number) => void;
  /** Called for each warning as it happens (they are also collected in `warnings`). */
  readonly onWarning?: (message: string) => void;
  /** 'auto' (default): a worker thread for large batches when the worker file exists. */
  readonly worker?: WorkerChoice;
  /** At most this many files are indexed. @default 25000 */
  readonly maxFiles?: number;
  /** How long a plugin may take on one file before it is skipped. @default 10000 */
  readonly pluginTimeoutMs?: number;
}

/** Files larger than this are not indexed (they are data or generated). */
const MAX_INDEXED_FILE_BYTES = 512 * 1024;
/** A project bigger than this is probably a home directory: index a part and say so. */
const MAX_INDEXED_FILES = 25_000;
/** Cache writes after agent edits are batched this long. */
const SAVE_DELAY_MS = 2000;

/** A default map budget that grows with the model's context window. */
export function defaultMapBudget(contextWindow: number): number {
  return Math.max(1000, Math.min(8000, Math.floor(contextWindow / 20)));
}

export function workspaceHash(projectRoot: string): string {
  return createHash('sha256').update(projectRoot).digest('hex').slice(0, 16);
}

/** `~/.cache/lindwyrm/codemap/<workspace-hash>` for a project. */
export function codeMapCacheDirFor(projectRoot: string, env: Record<string, string | undefined> = process.env): string {
  return join(appPaths(env).codeMapCacheDir, workspaceHash(projectRoot));
}

export async function openCodeMap(opts: OpenCodeMapOptions): Promise<CodeMap> {
  const warnings: string[] = [];
  const warn = (message: string): void => {
    warnings.push(message);
    opts.onWarning?.(message);
  };
  const plugins = await loadPlugins(opts.config, opts.projectRoot, warn);
  const mapsLoading = openMapCache(opts.cacheDir, opts.projectRoot);
  const timeoutMs = opts.pluginTimeoutMs ?? 10_000;
  const editor = createEditIndexer(opts.worker ?? 'auto', plugins, timeoutMs);
  const batches = chooseRunner(opts.worker ?? 'auto', opts.projectRoot);
  const index = await openProjectIndex({
    root: opts.projectRoot,
    cacheDir: opts.cacheDir,
    plugins,
    maxFileBytes: Math.min(MAX_INDEXED_FILE_BYTES, opts.config.maxFileSizeBytes || MAX_INDEXED_FILE_BYTES),
    timeoutMs,
    reindex: (job) => editor.index(job),
    maxFiles: opts.maxFiles ?? MAX_INDEXED_FILES,
    warn,
    // A few changed files since the last session go to the edit worker, which loads the compiler
    // off this thread and stays up for the edits to come; many go to a batch worker.
    runJobs: (jobs, set, run) => (editor.usesWorker() && jobs.length < WORKER_MIN_JOBS
      ? editor.indexAll(jobs, run.onProgress)
      : batches(jobs, set, run)),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  let entryFiles: Set<string> | undefined;
  const entries = async (): Promise<Set<string>> => (entryFiles ??= await findEntryFiles(opts.projectRoot, new Set(index.files().keys())));
  await entries();
  const maps = await mapsLoading;
  const rendered = new Map<string, string>();
  let renderedFor: string | undefined;
  /** Everything the rendered map depends on: the index (stamps, plugins, facts), entry points, the renderer. */
  const mapKey = (): string => createHash('sha1')
    .update(`${MAP_RENDER_VERSION}\0${index.fingerprint()}\0${[...(entryFiles ?? [])].sort().join('\0')}`)
    .digest('hex');
  const saveAll = async (): Promise<void> => {
    await index.flush();
    await maps.save().catch((err: unknown) => warn(`could not write the code map cache: ${(err as Error).message}`));
  };
  let saveTimer: NodeJS.Timeout | undefined;
  const scheduleSave = (): void => {
    if (saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      void saveAll();
    }, SAVE_DELAY_MS);
    saveTimer.unref();
  };
  // A stored map means the prompt needs nothing else now; otherwise the map is built from every
  // file's index, so read (and check) them here rather than in the first mapText call.
  if (!maps.has(mapKey())) await index.prepare();
  const source = {
    root: opts.projectRoot,
    graph: () => index.graph(),
    prepare: () => index.prepare(),
    async ensureFresh(rel: string): Promise<void> {
      const st = await stat(join(opts.projectRoot, rel)).catch(absent);
      const known = index.indexedStamp(rel);
      if (!st || !known || st.size !== known.size || st.mtimeMs !== known.mtimeMs) {
        await index.refresh(rel);
        scheduleSave();
      }
    },
  };
  const tools = [readSymbolTool(source), findReferencesTool(source), getDependenciesTool(source)];
  return {
    warnings,
    stats: index.stats,
    mapText(budgetTokens) {
      const key = mapKey();
      if (key !== renderedFor) {
        rendered.clear();
        renderedFor = key;
      }
      let text = rendered.get(String(budgetTokens)) ?? maps.get(key, budgetTokens);
      if (text === undefined) {
        const graph = index.graph();
        const scores = scoreSymbols({ graph, entryFiles: entryFiles ?? new Set() });
        text = renderMap({ graph, scores, budgetTokens });
        // A map made while some cached indexes were unreadable lacks their files: never keep it.
        if (index.degraded()) return text;
        maps.set(key, budgetTokens, text);
        scheduleSave();
      }
      rendered.set(String(budgetTokens), text);
      return text;
    },
    tools: () => tools,
    symbols: () => index.graph().symbols,
    async fileChanged(path) {
      await index.refresh(path);
      scheduleSave();
    },
    async close() {
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = undefined;
      await saveAll();
      index.release();
      await editor.close();
    },
  };
}
