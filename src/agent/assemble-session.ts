/**
 * Puts a session together: its files (store, lock, offloads), the preset and its client, the
 * code map (which keeps opening on its own clock), instructions, the session's first runtime, the
 * slash commands and the engine. start-session.ts passes the real tool registry and code map;
 * tests pass their own tools through the same path.
 */
import { join } from 'node:path';
import type { CliOptions } from '../cli/options.js';
import { appPaths } from '../config/paths.js';
import { useTempJournal } from '../io/temp-journal.js';
import type { Config } from '../config/types.js';
import { ignoreError, setVerboseLog } from '../diagnostics/ignore-error.js';
import type { Approver } from '../policy/types.js';
import type { ModelClientOptions } from '../providers/create-client.js';
import { registerMcpCommands } from '../mcp/mcp-commands.js';
import { sandboxedSpawn } from '../mcp/sandboxed-spawn.js';
import { startSessionMcp, type McpOptions, type SessionMcp } from '../mcp/session-mcp.js';
import { collectSessionSecrets } from '../secrets/session-secrets.js';
import { createSandbox } from '../sandbox/create-sandbox.js';
import { builtinSlashCommands } from '../slash/builtin-commands.js';
import { createSlashRegistry } from '../slash/registry.js';
import type { SlashCommand } from '../slash/types.js';
import type { ToolDefinition } from '../tools/types.js';
import { createEngine, type LindwyrmEngine, type ToolDelegates } from './engine.js';
import type { EngineQuestion } from './state.js';
import { indexingProgress } from './indexing-progress.js';
import { loadInstructions } from './instructions.js';
import { newSessionData } from './runtime.js';
import { startCodeMap, type CodeMapSource } from './session-code-map.js';
import { openSessionFiles } from './session-files.js';
import { sessionParts, type CreateTools } from './session-parts.js';
import { recordToData } from './session-record.js';
import { createSession } from './session.js';
import { newSessionMarker } from './system-prompt.js';
import { createHookRunner } from '../extensions/hook-runner.js';
import { createHooks } from '../extensions/hooks.js';
import { loadExtensions } from '../extensions/load-extensions.js';
import { formatSkillCosts, registerCustomCommands } from '../extensions/session-extensions.js';
import { skillsPromptSection, skillTool } from '../extensions/skills.js';
import { formatRewindStats } from '../rewind/format.js';
import { rewindSlashCommand } from '../rewind/rewind-slash.js';

export { codeMapBudget } from './session-parts.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Block ids of startup notices that repeat the config's warnings (the CLI already printed them). */
export const CONFIG_WARNING_PREFIX = 'config-warning-';
/** How long an idle session holds back its start-up work (sweeps, a resumed session's code map); a reply starts it sooner. */
const IDLE_START_MS = 5000;

/** Block ids of startup hints for the full screen (one-shot shows them only with --verbose). */
export const STARTUP_HINT_PREFIX = 'startup-hint-';

export interface SessionDeps extends CodeMapSource {
  readonly createTools: CreateTools;
  /** A call's title for the transcript; default each tool's own (defineTool's `title`). */
  readonly describe?: (name: string, input: unknown) => string;
  /**
   * The code map's tools as the model sees them (name, description, schema), available before the
   * index is: a session that starts while the map is still indexing registers these, and their
   * calls wait for the index. Without it such a session goes without the symbol tools.
   */
  readonly codeMapToolShapes?: (projectRoot: string) => Promise<readonly ToolDefinition[]>;
  /** Tools offered after the built-ins and the code map's (a protocol server's, a skill's). */
  readonly extraTools?: () => readonly ToolDefinition[];
  /** Slash commands registered after the built-in ones (custom command files, server prompts). */
  readonly slashCommands?: readonly SlashCommand[];
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
  /** MCP knobs: start and call timeouts (tests shorten them), the stdio spawn a sandbox wraps. */
  readonly mcp?: McpOptions;
}

export async function assembleSession(cli: CliOptions, config: Config, deps: SessionDeps): Promise<LindwyrmEngine> {
  const env = deps.env ?? process.env;
  const paths = appPaths(env);
  // Every atomic write of this run lists its temp file here first, for the sweep after a kill.
  useTempJournal(join(paths.dataDir, 'writes'));
  const log = deps.log ?? (cli.verbose ? (line: string) => process.stderr.write(`[lwyrm] ${line}\n`) : undefined);
  setVerboseLog(log);
  const notices: string[] = [...config.warnings];
  // The store's notices (a redaction, a repaired permission, a sweep) are startup notices until
  // the engine exists, then go to the transcript.
  let storeNotice = (line: string): void => void notices.push(line);
  // Retries are told to the transcript (and machine interfaces) once the engine exists.
  let retryNotice = (note: string): void => void note;
  let retries = 0;
  const secrets = await collectSessionSecrets({ config, env, ...(cli.proxy ? { cliProxy: cli.proxy } : {}) });
  // Probed beside the start, which does not wait for it; each command reads the config in force
  // then (after /perm) and the session's id.
  const live: { engine?: LindwyrmEngine } = {};
  const sandbox = createSandbox({
    config: () => live.engine?.runtime.config ?? config,
    env,
    sessionId: () => live.engine?.runtime.session.id ?? '',
    secretNames: () => config.secretEnvNames,
  });
  const files = await openSessionFiles({ cli, config, paths, secrets: secrets.values, notice: (line) => storeNotice(line), ...(log ? { log } : {}) });
  const record = files.record;
  // Only now, after the config's trust decision: the user's commands and skills, and a trusted project's.
  const extensions = await loadExtensions({ config, configDir: paths.configDir, userConfigFile: paths.userConfigFile });
  notices.push(...extensions.warnings);
  const skills = extensions.skills;
  const skillTools = skills.length ? [skillTool(skills)] : [];
  const skillsText = skillsPromptSection(skills);

  const parts = sessionParts({
    cli,
    config,
    env,
    secrets,
    // Both are there before the first prompt and tools are built (after `settle` below).
    instructions: () => instructions,
    codeMap: { on: config.codeMap.enabled && deps.openCodeMap !== undefined, tools: () => started.tools(), mapText: (b) => started.mapText(b) },
    // Every call that can change files runs inside the turn's checkpoint.
    createTools: (opts) => files.rewind.wrapTools(deps.createTools(opts)),
    onRetry: (note) => retryNotice(note),
    // A protocol server's tools after the caller's own and the skill tool; the MCP set is sized for the preset's window.
    extraTools: (p) => [...(deps.extraTools?.() ?? []), ...skillTools, ...(mcp?.tools(p.contextWindow) ?? [])],
    toolChanges: () => mcp?.refreeze(),
    ...(skillsText ? { skills: skillsText } : {}),
    ...(log ? { log } : {}),
    ...(deps.clientOptions ? { clientOptions: deps.clientOptions } : {}),
  });
  const presetName = cli.model ?? (record && config.presets.some((p) => p.name === record.preset) ? record.preset : undefined);
  const { preset, client, notices: presetNotices } = await parts.preset(presetName);
  notices.push(...presetNotices);
  const data = record ? recordToData(record) : newSessionData(files.firstId);
  // A resumed session with its saved map text needs nothing from the index to start, nor for its
  // first request: the map opens (modules, a worker, an index walk) once that request is out.
  const resumedMap = record ? parts.savedMapText(data, preset) : undefined;
  const mapLater = resumedMap !== undefined && deps.codeMapToolShapes !== undefined;
  // Start-up work held back from the first request's way: it goes once a reply begins, or after a
  // while idle; false when the session ends before.
  let firstRequestOut: (go: boolean) => void = () => undefined;
  const held = new Promise<boolean>((resolve) => (firstRequestOut = resolve));
  // Otherwise the code map opens (an index walk, a cache read) while the instructions load.
  const progress = indexingProgress(log);
  const mapStart = startCodeMap({
    config, cacheDir: paths.codeMapCacheDir, source: deps, progress, notice: (t) => notices.push(t), ...(log ? { log } : {}), ...(mapLater ? { gate: held } : {}),
  });
  const offload = await files.prepare();
  const instructions = await loadInstructions({
    projectRoot: config.projectRoot,
    userFile: paths.userInstructionsFile,
    ...(config.contextFile ? { contextFile: config.contextFile } : {}),
    trusted: config.trusted,
  });

  // The resumed session's own marker: its stubs still count as stubs and the system prompt is the
  // one its history was sent with (a new marker would be a cache miss on all of it).
  const marker = data.marker ?? newSessionMarker();
  data.marker = marker;
  // MCP servers start together, while the code map settles; the first prompt waits for them (each
  // at most its start time): their tools are frozen into it.
  let mcpNotice = (text: string): void => void notices.push(text);
  const mcp: SessionMcp | undefined = startSessionMcp({
    config,
    env,
    dataDir: paths.dataDir,
    notify: (text) => mcpNotice(text),
    onSecret: (value) => secrets.add(value),
    ...(log ? { log } : {}),
    // stdio servers start through the command sandbox, as bash commands do (a test may swap it).
    spawnServer: sandboxedSpawn(sandbox),
    ...deps.mcp,
  });
  // A cold index can take many seconds: the session starts without it, its prompt without the
  // map text (the prompt is fixed for the session; the map joins at the next prefix rewrite —
  // a summary, /clear), and the symbol tools wait for it when called. A resumed session with its
  // saved map text needs nothing from the index to start.
  const started = await mapStart.settle(mapLater);
  await mcp?.ready;
  notices.push(...instructions.notes);
  // The code map's text is read here only: when a session starts, and when the prefix changes anyway.
  const codeMapText = resumedMap ?? parts.mapText(preset);

  const slash = createSlashRegistry([...builtinSlashCommands(), rewindSlashCommand(() => files.rewind), ...(deps.slashCommands ?? [])]);
  registerCustomCommands(slash, extensions.commands, (line) => notices.push(line));
  if (skills.length) slash.extendPanel('context', () => formatSkillCosts(skills));
  // Hook failures and messages are startup notices until the engine exists, then go to the transcript.
  let hookNotice = (_level: 'info' | 'warning', text: string): void => void notices.push(text);
  let hookNotices = 0;
  let sessionId = (): string => data.id;
  const hooks = config.hooks.length
    ? createHooks({
        entries: config.hooks,
        // The bash tool's environment and output escaping; its sandbox where the session has one.
        run: createHookRunner({ config, wrap: (spec) => sandbox.wrap(spec) }),
        projectRoot: config.projectRoot,
        common: () => ({ session_id: sessionId(), transcript_path: '', cwd: config.projectRoot, permission_mode: cli.readOnly ? 'plan' : 'default' }),
        report: (level, text) => hookNotice(level, text),
        // What a hook changes in the project lands in the turn's checkpoint, as a command's does.
        around: (label, run) => (live.engine ? live.engine.aroundCommand(label, run) : run()),
        ...(log ? { log } : {}),
      })
    : undefined;
  // /mcp, the servers' /context lines, and their prompts as /SERVER:PROMPT as each server comes up.
  registerMcpCommands(slash, mcp, log);
  // The sweeps of old sessions and offloads are held back too: each is a scan of every session's
  // index that the request would wait behind (src/agent/session-files.ts).
  void held.then(async (go) => {
    if (go) await files.sweep((line) => storeNotice(line));
  });
  const releaseHeld = (): void => {
    clearTimeout(idleStart);
    firstRequestOut(true);
  };
  const idleStart = setTimeout(releaseHeld, IDLE_START_MS);
  idleStart.unref();
  const engine = createEngine(
    (host) =>
      createSession(
        {
          config,
          preset,
          client,
          ...(codeMapText !== undefined ? { codeMapText } : {}),
          marker,
          offload,
          ...parts.thinkingFor(preset),
          markdown: config.markdown,
          readOnly: cli.readOnly,
          preApproved: new Set(cli.allow),
          session: data,
        },
        parts,
        files,
        host,
      ),
    {
      ...(deps.approver ? { approver: deps.approver } : {}),
      // Only the full screen answers questions: one-shot and the protocol modes take their fallback.
      ...(deps.approver || cli.oneShot ? { answerQuestion: (q: EngineQuestion) => q.fallback } : {}),
      ...(deps.takeDenialNote ? { takeDenialNote: deps.takeDenialNote } : {}),
      ...(deps.describe ? { describe: deps.describe } : {}),
      ...(deps.delegates ? { delegates: deps.delegates } : {}),
      sandbox,
      ...(log ? { log } : {}),
      ...(started.on ? { onFileChanged: (path: string) => started.fileChanged(path) } : {}),
      saves: files.saves,
      ...(hooks ? { hooks } : {}),
      checkpoints: files.rewind,
      contextNotes: async () => formatRewindStats(await files.rewind.stats()),
      replyStarted: releaseHeld,
      cli,
      ...(files.store ? { store: files.store } : {}),
      slash,
      dataDir: paths.dataDir,
      ...(mcp ? { mcp } : {}),
      onDispose: async () => {
        clearTimeout(idleStart);
        firstRequestOut(false);
        await mcp?.close().catch(ignoreError('stop the MCP servers'));
        await sandbox.dispose();
        await files.close();
        // A map still indexing is closed when it opens; a process that exits before that (one-shot)
        // may give it a few seconds to finish and write its cache for the next run.
        await started.close(started.on ? (deps.codeMapGraceMs?.() ?? 0) : 0, parts.mapBudget(engine.runtime.preset));
      },
    },
  );
  live.engine = engine;
  void sandbox.startupNotes().then((note) => {
    if (note.warning) engine.store.dispatch({ type: 'notice', blockId: 'startup-sandbox', level: 'warning', text: note.warning });
    if (note.hint) engine.store.dispatch({ type: 'notice', blockId: `${STARTUP_HINT_PREFIX}sandbox`, level: 'info', text: note.hint });
  });
  // Config warnings were printed by the CLI before the session started; the full screen hides
  // that output, so they are in the transcript too, under ids one-shot knows to skip.
  notices.forEach((text, i) => {
    const blockId = i < config.warnings.length ? `${CONFIG_WARNING_PREFIX}${i}` : `startup-${i}`;
    engine.store.dispatch({ type: 'notice', blockId, level: 'warning', text });
  });
  // Progress reported before the engine existed shows now; later reports go straight to the store.
  progress.attach((p) => engine.store.dispatch({ type: 'indexing', progress: p }));
  let later = 0;
  mcpNotice = (text) => engine.store.dispatch({ type: 'notice', blockId: `mcp-notice-${++later}`, level: 'warning', text });
  storeNotice = (text) => engine.store.dispatch({ type: 'notice', blockId: `store-notice-${++later}`, level: 'warning', text });
  sessionId = () => engine.runtime.session.id;
  hookNotice = (level, text) => engine.store.dispatch({ type: 'notice', blockId: `hook-${++hookNotices}`, level, text });
  retryNotice = (text) => engine.store.dispatch({ type: 'notice', blockId: `retry-${++retries}`, level: 'warning', text, kind: 'retry' });
  engine.store.flush();
  return engine;
}
