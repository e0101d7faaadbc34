/**
 * Puts a session together: preset, model client, tools, instructions and system prompt, context
 * manager, offload and session stores, and the engine. start-session.ts passes the real tool
 * registry and code map; tests pass their own tools through the same path.
 */
import { randomBytes } from 'node:crypto';
import type { CliOptions } from '../cli/options.js';
import { appPaths } from '../config/paths.js';
import { ConfigError } from '../config/errors.js';
import { clientLocalOptions, openPreset, type OpenedPreset } from '../config/local-preset.js';
import { missingKeyMessage, resolveApiKey } from '../config/presets.js';
import type { Config, Preset, ToolProfile } from '../config/types.js';
import type { ToolSchema } from '../providers/types.js';
import { createContextManager } from '../context/create-context-manager.js';
import { createOffloadStore, sweepOrphanedOffloads } from '../context/offload-store.js';
import type { Approver } from '../policy/types.js';
import { createModelClient, type ModelClientOptions } from '../providers/create-client.js';
import { computeCost } from '../providers/cost.js';
import { SessionLockedError } from '../sessions/errors.js';
import { savedSessionIds } from '../sessions/saved-ids.js';
import { createSessionStore } from '../sessions/session-store.js';
import type { SessionRecord, SessionStore } from '../sessions/types.js';
import type { ToolDefinition } from '../tools/types.js';
import { createEngine, newSessionData, type LindwyrmEngine, type SessionData, type SessionRuntime, type ToolDelegates } from './engine.js';
import { loadInstructions } from './instructions.js';
import type { CodeMapPort, ToolRunner } from './ports.js';
import { recordOf, recordToData } from './session-record.js';
import { deferredCodeMapTools, finishLateIndex, waitForCodeMap } from './late-code-map.js';
import { indexingProgress } from './indexing-progress.js';
import { createSlashHandler } from './slash-commands.js';
import { createSummarizer } from './summarizer.js';
import { addCost, addUsage } from './usage.js';
import { collectSessionSecrets } from './session-secrets.js';
import { buildSystemPrompt, newSessionMarker } from './system-prompt.js';
import { openSessionRewind } from '../rewind/session-rewind.js';
import { removeRewindSession } from '../rewind/rewind-service.js';
import { redactJson as redactSecrets, secretMatcher } from '../sessions/secret-guard.js';
import { applyToolProfile } from './tool-profile.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Block ids of startup notices that repeat the config's warnings (the CLI already printed them). */
export const CONFIG_WARNING_PREFIX = 'config-warning-';

export interface SessionDeps {
  readonly createTools: (opts: { config: Config; vision: boolean; readOnly: boolean; extraTools?: readonly ToolDefinition[] }) => ToolRunner;
  readonly describe: (name: string, input: unknown) => string;
  readonly openCodeMap?: (opts: {
    projectRoot: string;
    cacheDir: string;
    config: Config;
    /** Files indexed so far of those to index; called per file, so the receiver throttles. */
    onProgress?: (done: number, total: number) => void;
  }) => Promise<CodeMapPort>;
  /**
   * The code map's tools as the model sees them (name, description, schema), available before the
   * index is: a session that starts while the map is still indexing registers these, and their
   * calls wait for the index. Without it such a session goes without the symbol tools.
   */
  readonly codeMapToolShapes?: (projectRoot: string) => Promise<readonly ToolDefinition[]>;
  /** How long the session start waits for the code map; default CODE_MAP_WAIT_MS (tests shorten it). */
  readonly codeMapWaitMs?: number;
  /**
   * Asked when the session ends: how long to wait for a code map still indexing, so its cache is
   * written before the process exits (one-shot). Default 0: it is closed whenever it opens.
   */
  readonly codeMapGraceMs?: () => number;
  readonly approver?: Approver;
  readonly takeDenialNote?: () => string | undefined;
  readonly env?: Env;
  /** Verbose log sink; default stderr when cli.verbose. */
  readonly log?: (line: string) => void;
  /** Test knobs for the client (small retry backoff). */
  readonly clientOptions?: Partial<ModelClientOptions>;
  /** File and command access owned by an editor (ACP); absent: the disk and local processes. */
  readonly delegates?: ToolDelegates;
}

/** Map budget: scales with the window (a 64th), within sensible bounds; the small profile's is smaller. */
export function codeMapBudget(config: Config, window: number, profile?: ToolProfile): number {
  if (config.codeMap.budgetTokens !== undefined) return config.codeMap.budgetTokens;
  if (profile === 'small') return Math.min(2_000, Math.max(200, Math.floor(window / 32)));
  return Math.min(8_000, Math.max(1_000, Math.floor(window / 64)));
}

export async function assembleSession(cli: CliOptions, config: Config, deps: SessionDeps): Promise<LindwyrmEngine> {
  const env = deps.env ?? process.env;
  const paths = appPaths(env);
  const log = deps.log ?? (cli.verbose ? (line: string) => process.stderr.write(`[lwyrm] ${line}\n`) : undefined);
  const notices: string[] = [...config.warnings];
  // The store's notices (a redaction, a repaired permission, a sweep) are startup notices until
  // the engine exists, then go to the transcript.
  let storeNotice = (line: string): void => void notices.push(line);
  const secrets = await collectSessionSecrets({ config, env, ...(cli.proxy ? { cliProxy: cli.proxy } : {}) });

  const store: SessionStore | undefined =
    cli.save || cli.resume || cli.continueLast
      ? createSessionStore({
          dir: paths.sessionsDir,
          projectRoot: config.projectRoot,
          offloadDir: paths.offloadDir,
          secrets: secrets.values,
          onNotice: (line) => storeNotice(line),
          onRemoved: (id) => removeRewindSession(paths.dataDir, config.projectRoot, id),
        })
      : undefined;
  let record: SessionRecord | undefined;
  if (store && cli.resume) record = await store.load(cli.resume);
  else if (store && cli.continueLast) {
    record = await store.latest();
    if (!record) notices.push('No saved session in this project yet; starting a new one.');
  }
  if (record && cli.save && store) {
    try {
      await store.lock(record.id);
    } catch (err) {
      if (!(err instanceof SessionLockedError)) throw err;
      notices.push(`${err.message}; starting a new session instead.`);
      record = undefined;
    }
  }

  const presetName = cli.model ?? (record && config.presets.some((p) => p.name === record!.preset) ? record.preset : undefined);
  // A local server is asked for the model, its real window and what it can do (config/local-preset.ts).
  const opened = await openPreset(config, presetName, log);
  const preset: Preset = opened.preset;
  notices.push(...opened.notices);
  const apiKey = await resolveApiKey(preset, env);
  if (!apiKey && !preset.keyOptional) throw new ConfigError(missingKeyMessage(preset));
  secrets.add(apiKey);
  // Retries are told to the transcript (and machine interfaces) once the engine exists.
  let retryNotice = (note: string): void => void note;
  let retries = 0;
  const makeClient = (p: Preset, key: string | undefined, o: OpenedPreset) =>
    createModelClient(p, {
      ...(clientLocalOptions(o) ? { local: clientLocalOptions(o) } : {}),
      ...(key ? { apiKey: key } : {}),
      ...(cli.proxy ? { proxy: cli.proxy } : {}),
      noProxy: config.noProxy,
      globalProxy: config.proxy,
      maxRetries: config.maxRetries,
      idleTimeoutMs: config.streamIdleTimeoutMs,
      maxReplyBytes: config.maxReplyBytes,
      ...(log ? { log } : {}),
      onRetry: (note: string) => retryNotice(note),
      env,
      ...deps.clientOptions,
    });

  // The code map opens (an index walk, a cache read) while the sweeps and instructions run.
  const progress = indexingProgress(log);
  const codeMapOpening: Promise<CodeMapPort | undefined> =
    config.codeMap.enabled && deps.openCodeMap
      ? deps
          .openCodeMap({ projectRoot: config.projectRoot, cacheDir: paths.codeMapCacheDir, config, onProgress: progress.update })
          .catch((err: unknown) => {
            notices.push(`The code map is unavailable: ${err instanceof Error ? err.message : String(err)}`);
            return undefined;
          })
      : Promise.resolve(undefined);
  if (config.codeMap.enabled && deps.openCodeMap) void codeMapOpening.then((m) => progress.settle(m !== undefined));
  const codeMapReady = waitForCodeMap(codeMapOpening, deps.codeMapWaitMs);
  const toolShapes =
    config.codeMap.enabled && deps.openCodeMap && deps.codeMapToolShapes
      ? deps.codeMapToolShapes(config.projectRoot).catch(() => [])
      : Promise.resolve([]);
  const sessionId = record?.id ?? store?.newId() ?? `tmp-${randomBytes(6).toString('hex')}`;
  const session = record ? recordToData(record) : newSessionData(sessionId);
  if (store && cli.save) {
    await store.sweep(config.sessionRetentionDays, sessionId).then(
      (r) => notices.push(...r.problems),
      () => undefined,
    );
  }
  if (cli.save) {
    // Offloads of sessions nothing saved (--no-save, a crash) go after a week; saved ones stay.
    const saved = savedSessionIds(paths.sessionsDir);
    await sweepOrphanedOffloads({ dir: paths.offloadDir, isSaved: async (id) => (await saved).has(id) || id === sessionId }).catch(
      () => undefined,
    );
  }
  let offload = createOffloadStore({ dir: paths.offloadDir, sessionId });
  // Checkpoints of every turn (files and conversation), in the project's store; a temp one with --no-save.
  const redactJson = (json: string): string => redactSecrets(json, secretMatcher(secrets.values())).text;
  const rewind = await openSessionRewind({ ...(cli.save ? { dataDir: paths.dataDir } : {}), config, sessionId, redactJson, ...(log ? { log } : {}) }, notices);

  // The resumed session's own marker: its stubs still count as stubs and the system prompt is the
  // one its history was sent with (a new marker would be a cache miss on all of it).
  const marker = session.marker ?? newSessionMarker();
  session.marker = marker;
  const instructions = await loadInstructions({
    projectRoot: config.projectRoot,
    userFile: paths.userInstructionsFile,
    ...(config.contextFile ? { contextFile: config.contextFile } : {}),
    trusted: config.trusted,
  });
  const mapOn = config.codeMap.enabled && deps.openCodeMap !== undefined;
  /** A saved session's map text, when its prompt can be sent again as it was (same preset and model). */
  const savedMapFor = (data: SessionData, p: Preset): string | undefined => {
    const saved = data.savedCodeMap;
    return mapOn && saved && saved.preset === p.name && saved.model === p.model ? saved.text : undefined;
  };
  const resumedMap = record ? savedMapFor(session, preset) : undefined;
  // A cold index can take many seconds: the session starts without it, its prompt without the
  // map text (the prompt is fixed for the session; the map joins at the next prefix rewrite —
  // a summary, /clear — through buildSystem below), and the symbol tools wait for it when called.
  // A resumed session with its saved map text needs nothing from the index to start.
  let codeMap = resumedMap !== undefined && deps.codeMapToolShapes ? undefined : await codeMapReady;
  let closed = false;
  // Set when the session ends in a run that waits for the index (one-shot): the map renders its
  // text before it closes, so the next run finds both the index and the map in the cache.
  let renderOnClose = false;
  const closeMap = async (m: CodeMapPort | undefined): Promise<void> => {
    if (m && renderOnClose) m.mapText(codeMapBudget(config, rt.preset.contextWindow, rt.preset.toolProfile));
    await m?.close();
  };
  const lateTools = codeMap ? undefined : deferredCodeMapTools(await toolShapes, codeMapOpening);
  // Files the agent changes while the index still builds may have been read before the change:
  // they are re-indexed once it is ready, so the symbol tools answer about the current code.
  const changedEarly = new Set<string>();
  const lateOpen: Promise<void> = codeMap
    ? Promise.resolve()
    : codeMapOpening
        .then(async (m) => {
          if (closed) return closeMap(m);
          codeMap = m;
          for (const path of changedEarly) await m?.fileChanged(path).catch(() => undefined);
          changedEarly.clear();
        })
        .catch(() => undefined);
  notices.push(...instructions.notes);

  // The code map's text is read here only: when a session starts, and when the prefix changes anyway.
  // It is kept beside the prompt (rt.codeMapText) and saved, so a resume can send the same bytes.
  const freshMap = (p: Preset): string | undefined => (mapOn ? (codeMap?.mapText(codeMapBudget(config, p.contextWindow, p.toolProfile)) ?? '') : undefined);
  const buildSystem = (p: Preset, m: string, mapText: string | undefined): string =>
    buildSystemPrompt({
      projectRoot: config.projectRoot,
      model: p.model,
      presetName: p.name,
      readOnly: cli.readOnly,
      marker: m,
      instructions,
      ...(config.commitTrailer ? { commitTrailer: config.commitTrailer } : {}),
      ...(mapText ? { codeMap: mapText } : {}),
      ...(p.toolProfile === 'small' ? { profile: 'small' as const } : {}),
    });
  const buildParts = (p: Preset, m: string, mapText = freshMap(p)): { tools: ToolRunner; system: string; codeMapText?: string } => {
    const extraTools = lateTools ?? codeMap?.tools();
    const registry = deps.createTools({ config, vision: p.vision, readOnly: cli.readOnly, ...(extraTools?.length ? { extraTools } : {}) });
    const tools = rewind.wrapTools(applyToolProfile(registry, p.toolProfile));
    return { tools, system: buildSystem(p, m, mapText), ...(mapText !== undefined ? { codeMapText: mapText } : {}) };
  };
  const parts = buildParts(preset, marker, resumedMap ?? freshMap(preset));

  // The runtime is filled in below; the summarizer reads it only when a reclaim runs.
  // eslint-disable-next-line prefer-const -- assigned once, after the context manager that needs it
  let rt: SessionRuntime;
  const summarize = createSummarizer(() => ({
    client: rt.client,
    system: rt.system,
    toolSchemas: rt.toolSchemas,
    maxTokens: rt.preset.maxTokens,
    thinking: rt.thinking,
    ...(rt.thinkingEffort ? { thinkingEffort: rt.thinkingEffort } : {}),
    ...(engine?.turnSignal() ? { signal: engine.turnSignal() } : {}),
    onUsage: (u) => {
      // A summary is billed like any request: it counts in the session's totals, not the window.
      context.recordSideUsage(u);
      const sess = rt.session;
      sess.usage = addUsage(sess.usage, u);
      sess.cost = addCost(sess.cost, computeCost(u, rt.preset.prices, rt.preset));
      engine.store.dispatch({ type: 'usage', lastUsage: u, sessionUsage: sess.usage, sessionCost: sess.cost });
    },
  }));
  const toolSchemas = Object.freeze([...parts.tools.schemas()]);
  // Window and thresholds come from the preset in use: /model builds a new one.
  const makeContext = (store: typeof offload, p: Preset, m: string, schemas: readonly ToolSchema[]) =>
    createContextManager({
      window: p.contextWindow,
      ...(config.offloadEagerTokens !== undefined ? { eagerTokens: config.offloadEagerTokens } : {}),
      ...(config.offloadThresholdTokens !== undefined ? { thresholdTokens: config.offloadThresholdTokens } : {}),
      ...(config.protectedTokens !== undefined ? { protectedTokens: config.protectedTokens } : {}),
      offload: store,
      summarize,
      marker: m,
      tools: schemas,
    });
  let context = makeContext(offload, preset, marker, toolSchemas);
  const thinkingEffort = cli.thinkingEffort ?? preset.thinkingEffort;
  rt = {
    config,
    preset,
    client: makeClient(preset, apiKey, opened),
    tools: parts.tools,
    toolSchemas,
    system: parts.system,
    ...(parts.codeMapText !== undefined ? { codeMapText: parts.codeMapText } : {}),
    marker,
    context,
    offload,
    thinking: cli.thinking ?? preset.thinking,
    ...(thinkingEffort ? { thinkingEffort } : {}),
    markdown: config.markdown,
    readOnly: cli.readOnly,
    preApproved: new Set(cli.allow),
    sessionGrants: new Set(),
    session,
  };

  let saved = record !== undefined;
  const engine = createEngine(rt, {
    ...(deps.approver ? { approver: deps.approver } : {}),
    ...(deps.takeDenialNote ? { takeDenialNote: deps.takeDenialNote } : {}),
    costOf: computeCost,
    describe: deps.describe,
    ...(deps.delegates ? { delegates: deps.delegates } : {}),
    ...(log ? { log } : {}),
    ...(config.codeMap.enabled && deps.openCodeMap
      ? { onFileChanged: (path: string) => (codeMap ? void codeMap.fileChanged(path).catch(() => undefined) : void changedEarly.add(path)) }
      : {}),
    saves: Boolean(store && cli.save),
    checkpoints: { begin: (prompt, conversation) => rewind.beginTurn(prompt, conversation), end: () => rewind.endTurn() },
    persist: async (r) => {
      if (!store || !cli.save) return;
      const offloadRefs = (await r.offload.list()).map((o) => o.ref);
      await store.save(recordOf(r, offloadRefs));
      saved = true;
    },
    refreshPrompt: (r) => {
      r.codeMapText = freshMap(r.preset);
      r.system = buildSystem(r.preset, r.marker, r.codeMapText);
    },
    slash: createSlashHandler({
      cli,
      ...(store ? { store } : {}),
      projectRoot: config.projectRoot,
      rewind,
      resolvePreset: async (name) => {
        const o = await openPreset(config, name, log);
        const p = o.preset;
        const key = await resolveApiKey(p, env);
        if (!key && !p.keyOptional) throw new ConfigError(missingKeyMessage(p));
        secrets.add(key);
        return { preset: p, client: makeClient(p, key, o), ...buildParts(p, rt.marker) };
      },
      presetSwitched: async (eng) => {
        const r = eng.runtime;
        const old = await r.context.stats(r.session.history, r.system).catch(() => undefined);
        context = makeContext(offload, r.preset, r.marker, r.toolSchemas);
        // The session's totals for /context carry over; only the window and thresholds change.
        if (old) {
          const cacheRead = old.cacheReadTokens;
          context.recordSideUsage({ input: old.inputTokensTotal - cacheRead, cacheRead, cacheWrite: 0, output: old.outputTokens });
        }
        r.context = context;
        eng.store.dispatch({ type: 'context', gauge: context.gauge(r.session.history, r.system) });
      },
      openSession: async (eng, data) => {
        const id = data === 'new' ? (store?.newId() ?? `tmp-${randomBytes(6).toString('hex')}`) : data.id;
        if (store && cli.save && data !== 'new') await store.lock(id);
        const r = eng.runtime;
        const old = r.session.id;
        await offload.dispose(saved && cli.save).catch(() => undefined);
        if (store && cli.save) await store.unlock(old).catch(() => undefined);
        // A saved session brings back its own marker; a new one keeps the current marker.
        r.marker = data === 'new' ? r.marker : (data.marker ?? newSessionMarker());
        // The prefix changes here anyway: the moment to refresh the code map in the prompt, unless
        // the saved session's own prompt can be sent again as its cache knows it.
        r.codeMapText = (data === 'new' ? undefined : savedMapFor(data, r.preset)) ?? freshMap(r.preset);
        r.system = buildSystem(r.preset, r.marker, r.codeMapText);
        offload = createOffloadStore({ dir: paths.offloadDir, sessionId: id });
        context = makeContext(offload, r.preset, r.marker, r.toolSchemas);
        r.offload = offload;
        r.context = context;
        saved = data !== 'new';
        await rewind.switchSession(id);
        eng.replaceSession(data === 'new' ? { ...newSessionData(id), marker: r.marker } : { ...data, marker: r.marker });
      },
    }),
    onDispose: async () => {
      await rewind.close();
      await store?.close().catch(() => undefined);
      await offload.dispose(saved && cli.save).catch(() => undefined);
      // A map still indexing is closed when it opens; a process that exits before that (one-shot)
      // may give it a few seconds to finish and write its cache for the next run.
      closed = true;
      const graceMs = mapOn ? (deps.codeMapGraceMs?.() ?? 0) : 0;
      renderOnClose = graceMs > 0;
      if (codeMap) await closeMap(codeMap).catch(() => undefined);
      else if (graceMs > 0) await finishLateIndex(lateOpen, graceMs, log);
    },
  });
  if (record) engine.replaceSession(session);
  // The meter has a figure from the start: an estimate of the prompt (and a resumed history).
  engine.store.dispatch({ type: 'context', gauge: context.gauge(rt.session.history, rt.system) });
  // Config warnings were printed by the CLI before the session started; the full screen hides
  // that output, so they are in the transcript too, under ids one-shot knows to skip.
  notices.forEach((text, i) => {
    const blockId = i < config.warnings.length ? `${CONFIG_WARNING_PREFIX}${i}` : `startup-${i}`;
    engine.store.dispatch({ type: 'notice', blockId, level: 'warning', text });
  });
  // Progress reported before the engine existed shows now; later reports go straight to the store.
  progress.attach((p) => engine.store.dispatch({ type: 'indexing', progress: p }));
  let later = 0;
  storeNotice = (text) => engine.store.dispatch({ type: 'notice', blockId: `store-notice-${++later}`, level: 'warning', text });
  retryNotice = (text) => engine.store.dispatch({ type: 'notice', blockId: `retry-${++retries}`, level: 'warning', text, kind: 'retry' });
  engine.store.flush();
  return engine;
}
