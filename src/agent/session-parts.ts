/**
 * How each part of a session runtime is made for a preset: its client (key resolved, proxy
 * chosen), its tools, its system prompt, its context manager. The session's operations call these
 * and swap the results in together; nothing here holds session state except the keys it resolved.
 */
import type { CliOptions } from '../cli/options.js';
import { ConfigError } from '../config/errors.js';
import { clientLocalOptions, openPreset, type OpenedPreset } from '../config/local-preset.js';
import { missingKeyMessage, resolveApiKey } from '../config/presets.js';
import type { Config, Preset, ToolProfile } from '../config/types.js';
import { createContextManager } from '../context/create-context-manager.js';
import type { ContextManager, OffloadStore, Summarizer } from '../context/types.js';
import { createModelClient, type ModelClientOptions } from '../providers/create-client.js';
import type { ModelClient, ThinkingEffort, ToolSchema } from '../providers/types.js';
import type { SessionSecrets } from '../secrets/session-secrets.js';
import type { ToolDefinition } from '../tools/types.js';
import type { LoadedInstructions } from './instructions.js';
import type { ToolRunner } from './ports.js';
import type { SessionData } from './runtime.js';
import type { SessionCodeMap } from './session-code-map.js';
import { buildSystemPrompt } from './system-prompt.js';
import { applyToolProfile } from './tool-profile.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Makes the tools a session offers (the real registry, or a test's). */
export type CreateTools = (opts: { config: Config; vision: boolean; readOnly: boolean; extraTools?: readonly ToolDefinition[] }) => ToolRunner;

export interface SessionParts {
  /**
   * A preset by name (or the default), made ready: a local server asked for its model and real
   * window (config/local-preset.ts), its key resolved and remembered for redaction; `notices` are
   * what the user should know before the first turn.
   */
  preset(name: string | undefined, proxyOverride?: string | false): Promise<{ preset: Preset; client: ModelClient; notices: readonly string[] }>;
  /** A new client for a preset already resolved (another proxy). */
  client(preset: Preset, proxyOverride?: string | false): ModelClient;
  tools(preset: Preset): { tools: ToolRunner; toolSchemas: readonly ToolSchema[] };
  /**
   * Tools whose lists can change during a session (an MCP server's) are frozen until the prompt
   * prefix is rewritten anyway: this takes the changes in at that moment. Returns the notice to
   * show when there were any — `tools` then builds the new set — or undefined.
   */
  toolChanges(): string | undefined;
  system(preset: Preset, marker: string, mapText: string | undefined): string;
  /** The code map's text for this preset's window now ('' while indexing); undefined when off. */
  mapText(preset: Preset): string | undefined;
  /** A saved conversation's map text, when its prompt can be sent again as it was (same preset and model). */
  savedMapText(data: SessionData, preset: Preset): string | undefined;
  context(offload: OffloadStore, preset: Preset, marker: string, schemas: readonly ToolSchema[], summarize: Summarizer): ContextManager;
  /** The reasoning settings a preset starts with (the command line's win). */
  thinkingFor(preset: Preset): { thinking: boolean; thinkingEffort?: ThinkingEffort };
  /** The code map's budget in tokens for a preset (its window and tool profile). */
  mapBudget(preset: Preset): number;
}

/** Map budget: scales with the window (a 64th), within sensible bounds; the small profile's is smaller. */
export function codeMapBudget(config: Config, window: number, profile?: ToolProfile): number {
  if (config.codeMap.budgetTokens !== undefined) return config.codeMap.budgetTokens;
  if (profile === 'small') return Math.min(2_000, Math.max(200, Math.floor(window / 32)));
  return Math.min(8_000, Math.max(1_000, Math.floor(window / 64)));
}

export function sessionParts(opts: {
  readonly cli: CliOptions;
  readonly config: Config;
  readonly env: Env;
  readonly secrets: SessionSecrets;
  /** The project's instructions, loaded by the time a prompt is built. */
  readonly instructions: () => LoadedInstructions;
  readonly codeMap: Pick<SessionCodeMap, 'on' | 'tools' | 'mapText'>;
  readonly createTools: CreateTools;
  /** Tools from elsewhere offered after the built-ins and the code map's (a protocol server's, for the preset's window). */
  readonly extraTools?: (preset: Preset) => readonly ToolDefinition[];
  /** See SessionParts.toolChanges. */
  readonly toolChanges?: () => string | undefined;
  readonly log?: (line: string) => void;
  /** Told before each retry of a request, for the transcript (and machine interfaces). */
  readonly onRetry?: (note: string) => void;
  readonly clientOptions?: Partial<ModelClientOptions>;
  /** The skills' part of the system prompt, fixed for the session. */
  readonly skills?: string;
}): SessionParts {
  const { cli, config } = opts;
  const keys = new Map<string, string | undefined>();
  const opened = new Map<string, OpenedPreset>();
  const client = (p: Preset, proxyOverride?: string | false): ModelClient => {
    const key = keys.get(p.name);
    const o = opened.get(p.name);
    const local = o ? clientLocalOptions(o) : undefined;
    const proxy = proxyOverride ?? cli.proxy;
    // A proxy URL can carry a password: session files must never hold it.
    if (typeof proxyOverride === 'string') opts.secrets.add(proxyOverride);
    return createModelClient(p, {
      ...(local ? { local } : {}),
      ...(key ? { apiKey: key } : {}),
      ...(proxy !== undefined ? { proxy } : {}),
      noProxy: config.noProxy,
      globalProxy: config.proxy,
      maxRetries: config.maxRetries,
      idleTimeoutMs: config.streamIdleTimeoutMs,
      maxReplyBytes: config.maxReplyBytes,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
      env: opts.env,
      ...opts.clientOptions,
    });
  };
  const mapBudget = (p: Preset): number => codeMapBudget(config, p.contextWindow, p.toolProfile);
  return {
    async preset(name, proxyOverride) {
      const o = await openPreset(config, name, opts.log);
      const p = o.preset;
      const key = await resolveApiKey(p, opts.env);
      if (!key && !p.keyOptional) throw new ConfigError(missingKeyMessage(p));
      opts.secrets.add(key);
      keys.set(p.name, key);
      opened.set(p.name, o);
      return { preset: p, client: client(p, proxyOverride), notices: o.notices };
    },
    client,
    tools(p) {
      const extraTools = [...(opts.codeMap.tools() ?? []), ...(opts.extraTools?.(p) ?? [])];
      const registry = opts.createTools({ config, vision: p.vision, readOnly: cli.readOnly, ...(extraTools.length ? { extraTools } : {}) });
      const tools = applyToolProfile(registry, p.toolProfile);
      return { tools, toolSchemas: Object.freeze([...tools.schemas()]) };
    },
    toolChanges: () => opts.toolChanges?.(),
    system: (p, marker, mapText) =>
      buildSystemPrompt({
        projectRoot: config.projectRoot,
        model: p.model,
        presetName: p.name,
        readOnly: cli.readOnly,
        marker,
        instructions: opts.instructions(),
        ...(config.commitTrailer ? { commitTrailer: config.commitTrailer } : {}),
        ...(mapText ? { codeMap: mapText } : {}),
        ...(p.toolProfile === 'small' ? { profile: 'small' as const } : {}),
        ...(opts.skills ? { skills: opts.skills } : {}),
      }),
    mapText: (p) => opts.codeMap.mapText(mapBudget(p)),
    savedMapText(data, p) {
      const saved = data.savedCodeMap;
      return opts.codeMap.on && saved && saved.preset === p.name && saved.model === p.model ? saved.text : undefined;
    },
    // Window and thresholds come from the preset in use: /model makes a new one.
    context: (offload, p, marker, schemas, summarize) =>
      createContextManager({
        window: p.contextWindow,
        ...(config.offloadEagerTokens !== undefined ? { eagerTokens: config.offloadEagerTokens } : {}),
        ...(config.offloadThresholdTokens !== undefined ? { thresholdTokens: config.offloadThresholdTokens } : {}),
        ...(config.protectedTokens !== undefined ? { protectedTokens: config.protectedTokens } : {}),
        offload,
        summarize,
        marker,
        tools: schemas,
        replyTokens: p.maxTokens,
      }),
    thinkingFor(p) {
      const thinkingEffort = cli.thinkingEffort ?? p.thinkingEffort;
      return { thinking: cli.thinking ?? p.thinking, ...(thinkingEffort ? { thinkingEffort } : {}) };
    },
    mapBudget,
  };
}
