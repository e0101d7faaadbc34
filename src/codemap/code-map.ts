/** The code map: a ranked, signatures-only map of the project for the system prompt, and symbol tools. */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { appPaths } from '../config/paths.js';
import type { Config } from '../config/types.js';
import type { ToolDefinition } from '../tools/types.js';
import type { CheckerAnswer, CheckerQuestion } from './checker-protocol.js';
import { createEditIndexer } from './edit-worker.js';
import { findEntryFiles } from './entry-points.js';
import { findReferencesTool } from './find-references-tool.js';
import { getDependenciesTool } from './get-dependencies-tool.js';
import type { ProjectSymbol } from './graph-types.js';
import { renderMap } from './map-text.js';
import { loadPlugins } from './load-plugins.js';
import { MAP_RENDER_VERSION, openMapCache } from './map-cache.js';
import { openProjectIndex, toProjectPath, type OpenStats } from './project-index.js';
import { scoreSymbols } from './rank.js';
import { readSymbolTool } from './read-symbol-tool.js';
import { GIVEN_UP, NEEDS_FILES } from './ts-checker.js';
import { chooseRunner, PRESTART_FILES, WORKER_MIN_JOBS, type WorkerChoice } from './worker-runner.js';
import { absent, ignoreError } from '../diagnostics/ignore-error.js';

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
  /** 'auto' (default): a pool of worker threads for large batches when the worker file exists. */
  readonly worker?: WorkerChoice;
  /**
   * The index is built behind a session (the user types, requests go out meanwhile): its parse
   * workers run at a lower OS priority, see worker-runner.ts. Off (full priority) for `--map`
   * and benchmarks, where the index is what the user waits for.
   */
  readonly backgroundIndexing?: boolean;
  /**
   * Where parse workers keep V8's code cache of the TypeScript compiler, shared by every project
   * (a worker's load of the compiler: ~0.4 s → under 0.1 s). None when absent.
   */
  readonly codeCacheDir?: string;
  /** At most this many files are indexed. @default 25000 */
  readonly maxFiles?: number;
  /** How long a plugin may take on one file before it is skipped. @default 10000 */
  readonly pluginTimeoutMs?: number;
  /** false: answer TS/JS symbol questions from the syntax index only (for comparisons). @default true */
  readonly typeChecker?: boolean;
  /**
   * Loads the checker's compiler and libraries in the index worker this long after opening, in the
   * background (a session still open by then is likely to ask; a short one-shot run is gone before).
   * Project files are parsed only when a question needs them. Off when absent.
   */
  readonly warmCheckerAfterMs?: number;
  /**
   * How long a symbol tool waits for the checker before it answers from the syntax index, saying
   * the answer is partial; the checker goes on, and the same question asked again gets its answer.
   * Waits as long as the checker takes when absent; a function is asked at each question.
   */
  readonly checkerBudgetMs?: number | (() => number);
}

/**
 * What a session waits for the checker (a cold one on a large project takes longer: the tool answers
 * partially meanwhile). Just under 2 s, the most a first answer should take: most cold questions on
 * a project of a few hundred files are answered in full by then, where a partial answer would
 * cost the model another call.
 */
export const CHECKER_BUDGET_MS = 1900;

/** The code cache's folder inside the code map's cache folder (beside the projects' folders, named by hash). */
export const CODE_CACHE_FOLDER = 'v8-code-cache';

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
  const editor = createEditIndexer(opts.worker ?? 'auto', plugins, timeoutMs, opts.codeCacheDir);
  const batches = chooseRunner(opts.worker ?? 'auto', { background: opts.backgroundIndexing === true, ...(opts.codeCacheDir ? { codeCacheDir: opts.codeCacheDir } : {}) });
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
    // off this thread and stays up for the edits to come; many go to the parse pool.
    prestart: { files: PRESTART_FILES, start: () => batches.prestart(plugins, timeoutMs) },
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
        // A question under way was asked about the code before this change: none joins it now.
        pending.clear();
        scheduleSave();
      }
    },
  };
  // The checker gets the TS/JS file list when it changed since it was last sent, or when the worker is new.
  let sent: { key: string; generation: number } | undefined;
  /** The last question asked, asked again in the background after an edit (its types are then warm for the next one). */
  let lastQuestion: CheckerQuestion | undefined;
  const checkedFiles = (): string[] => [...index.files()].filter(([, f]) => f.plugin?.name === 'typescript').map(([rel]) => rel).sort();
  const ask = async (q: CheckerQuestion, token: object): Promise<CheckerAnswer> => {
    const files = checkedFiles();
    const key = files.join('\0');
    const generation = editor.generation();
    const fresh = sent?.key === key && sent.generation === generation;
    let answer = await editor.query({ ...q, root: opts.projectRoot, ...(fresh ? {} : { files }) }, token);
    if (!answer.ok && answer.error === NEEDS_FILES) answer = await editor.query({ ...q, root: opts.projectRoot, files }, token);
    if (answer.ok) sent = { key, generation: editor.generation() };
    return answer;
  };
  /** Questions a tool stopped waiting for, still under way in the worker: the same question asked again waits for that answer. */
  const pending = new Map<string, Promise<CheckerAnswer>>();
  const askChecker = async (q: CheckerQuestion): Promise<CheckerAnswer> => {
    // Warming in this thread would stop it for seconds; without a worker the first question builds it.
    if (q.op === 'warm' && !editor.usesWorker()) return { ok: true, results: [] };
    if (q.op !== 'warm') lastQuestion = q;
    const budget = typeof opts.checkerBudgetMs === 'function' ? opts.checkerBudgetMs() : opts.checkerBudgetMs;
    // In this thread the checker blocks until done: a budget could not cut it short.
    if (q.op === 'warm' || budget === undefined || !editor.usesWorker()) return ask(q, {});
    const key = JSON.stringify(q);
    const before = pending.get(key);
    const token = {};
    const asked = before ?? ask(q, token);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((res) => { timer = setTimeout(res, budget, undefined); });
    const first = await Promise.race([asked, late]);
    clearTimeout(timer);
    if (first) {
      if (pending.get(key) === asked) pending.delete(key);
      // The earlier one was stopped by a request in between: this question is asked anew.
      return before && !first.ok && first.error === GIVEN_UP ? askChecker(q) : first;
    }
    if (!before) {
      // The checker goes on in the worker until another request comes; its answer is kept there for the same question asked again.
      editor.giveUp(token);
      pending.set(key, asked);
      void asked.catch(ignoreError('finish a TypeScript checker question answered partially')).finally(() => {
        if (pending.get(key) === asked) pending.delete(key);
      });
    }
    return { ok: false, late: true, error: `partial answer: the TypeScript checker did not answer within ${(budget / 1000).toFixed(1)} s `
      + '(it is still working the project\'s types out; ask again shortly for its complete answer)' };
  };
  const checked = (rel: string): boolean => opts.typeChecker !== false && index.files().get(rel)?.plugin?.name === 'typescript';
  const symbolSource = { ...source, askChecker, checked };
  let warmTimer: NodeJS.Timeout | undefined;
  if (opts.warmCheckerAfterMs !== undefined && opts.typeChecker !== false && checkedFiles().length > 0) {
    warmTimer = setTimeout(() => void askChecker({ op: 'warm', targets: [] }).catch(ignoreError('warm up the TypeScript checker')), opts.warmCheckerAfterMs);
    warmTimer.unref();
  }
  const tools = [readSymbolTool(symbolSource), findReferencesTool(symbolSource), getDependenciesTool(symbolSource)];
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
      pending.clear();
      await index.refresh(path);
      scheduleSave();
      // An edit throws the checker's types away: work them out again while the model writes its next turn.
      const rel = toProjectPath(opts.projectRoot, path);
      if (lastQuestion && lastQuestion.op !== 'warm' && rel !== undefined && checked(rel)) {
        void askChecker({ op: 'warm', targets: lastQuestion.targets, replay: lastQuestion.op }).catch(ignoreError('ask the TypeScript checker again after an edit'));
      }
    },
    async close() {
      clearTimeout(warmTimer);
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = undefined;
      await saveAll();
      index.release();
      await editor.close();
    },
  };
}
