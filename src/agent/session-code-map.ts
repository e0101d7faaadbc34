/**
 * The code map's lifecycle in a session, which is not the session's: it starts opening before
 * anything else (an index walk, a cache read), the session waits for it only briefly, and a map
 * that comes late joins through its tools and at the next prompt rewrite. Files the agent changes
 * meanwhile are re-indexed once it is there; at the end a one-shot run may give it a few seconds
 * to write its cache.
 */
import type { Config } from '../config/types.js';
import { ignoreError, reportIgnored } from '../diagnostics/ignore-error.js';
import type { ToolDefinition } from '../tools/types.js';
import type { IndexingProgressSink } from './indexing-progress.js';
import { deferredCodeMapTools, finishLateIndex, waitForCodeMap } from './late-code-map.js';
import type { CodeMapPort } from './ports.js';

export interface CodeMapSource {
  readonly openCodeMap?: (opts: {
    projectRoot: string;
    cacheDir: string;
    config: Config;
    /** Files indexed so far of those to index; called per file, so the receiver throttles. */
    onProgress?: (done: number, total: number) => void;
  }) => Promise<CodeMapPort>;
  /** The map's tools as the model sees them, before the index exists (see SessionDeps). */
  readonly codeMapToolShapes?: (projectRoot: string) => Promise<readonly ToolDefinition[]>;
  /** How long the start waits for the map; default CODE_MAP_WAIT_MS. */
  readonly codeMapWaitMs?: number;
}

export interface SessionCodeMap {
  /** Whether the session has a code map at all (on in the config, and a way to open one). */
  readonly on: boolean;
  /** The tools for the registry: the map's own, or stand-ins that wait for a late index. */
  tools(): readonly ToolDefinition[] | undefined;
  /** The map's text for a prompt at this budget: '' while it is not there; undefined when off. */
  mapText(budgetTokens: number): string | undefined;
  /** A tool changed this file: the index refreshes it (now, or once it is there). */
  fileChanged(path: string): void;
  /**
   * The session ends. A map still indexing is closed whenever it opens; with graceMs > 0 the end
   * waits that long for it, and it renders its text at `budgetTokens` first so the next run finds
   * both the index and the map in the cache.
   */
  close(graceMs: number, budgetTokens: number): Promise<void>;
}

/** Starts opening the map; `settle` then waits for it as long as a start may (or not at all). */
export function startCodeMap(opts: {
  readonly config: Config;
  readonly cacheDir: string;
  readonly source: CodeMapSource;
  readonly progress: IndexingProgressSink;
  /** Where "the code map is unavailable" goes (a startup notice). */
  readonly notice: (text: string) => void;
  readonly log?: (line: string) => void;
  /**
   * Opening waits for this (a resumed session, whose prompt has its map text already, opens the
   * map once its first request is out); false: the session ended first, nothing is opened.
   */
  readonly gate?: Promise<boolean>;
}): { settle(skipWait: boolean): Promise<SessionCodeMap> } {
  const { config, source } = opts;
  const on = config.codeMap.enabled && source.openCodeMap !== undefined;
  const open = (): Promise<CodeMapPort | undefined> =>
    source.openCodeMap!({ projectRoot: config.projectRoot, cacheDir: opts.cacheDir, config, onProgress: opts.progress.update }).catch((err: unknown) => {
      opts.notice(`The code map is unavailable: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
  const opening: Promise<CodeMapPort | undefined> = !on ? Promise.resolve(undefined) : opts.gate ? opts.gate.then((go) => (go ? open() : undefined)) : open();
  if (on) void opening.then((m) => opts.progress.settle(m !== undefined));
  const ready = waitForCodeMap(opening, source.codeMapWaitMs);
  // A failure here means no stand-ins: a late map's tools then join at no point.
  const shapes = on && source.codeMapToolShapes
    ? source.codeMapToolShapes(config.projectRoot).then((s) => s, (err: unknown) => (reportIgnored('load the code map tools', err, opts.log), []))
    : Promise.resolve([]);

  return {
    async settle(skipWait) {
      let map = skipWait ? undefined : await ready;
      let closed = false;
      let renderAt: number | undefined;
      const closeMap = async (m: CodeMapPort | undefined): Promise<void> => {
        if (m && renderAt !== undefined) m.mapText(renderAt);
        await m?.close();
      };
      const lateTools = map ? undefined : deferredCodeMapTools(await shapes, opening);
      const changedEarly = new Set<string>();
      const refresh = (m: CodeMapPort, path: string): Promise<void> => m.fileChanged(path).catch(ignoreError(`re-index ${path}`, opts.log));
      const lateOpen: Promise<void> = map
        ? Promise.resolve()
        : opening
            .then(async (m) => {
              if (closed) return closeMap(m);
              map = m;
              if (m) for (const path of changedEarly) await refresh(m, path);
              changedEarly.clear();
            })
            .catch(ignoreError('finish opening the code map', opts.log));
      return {
        on,
        tools: () => lateTools ?? map?.tools(),
        mapText: (budget) => (on ? (map?.mapText(budget) ?? '') : undefined),
        fileChanged(path) {
          if (!on) return;
          if (map) void refresh(map, path);
          else changedEarly.add(path);
        },
        async close(graceMs, budgetTokens) {
          closed = true;
          const grace = on ? graceMs : 0;
          if (grace > 0) renderAt = budgetTokens;
          if (map) await closeMap(map).catch(ignoreError('close the code map', opts.log));
          else if (grace > 0) await finishLateIndex(lateOpen, grace, opts.log);
        },
      };
    },
  };
}
