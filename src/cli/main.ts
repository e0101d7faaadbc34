/** The command after argument parsing: init, map, one-shot or a full-screen session. */
import { loadConfig } from '../config/load-config.js';
import { findPreset, missingKeyMessage, resolveApiKey } from '../config/presets.js';
import type { Config } from '../config/types.js';
import { jsonResult } from '../headless/json-result.js';
import { jsonLine } from '../headless/json-line.js';
import { failedStreamResult } from '../headless/stream-json-failure.js';
import { escapeForDisplay } from '../policy/escape.js';
import { ignoreError } from '../diagnostics/ignore-error.js';
import { scrubExecEnvironment } from '../sandbox/scrub-environ.js';
import { helpText } from './flags.js';
import { initMessage, writeStarterAgentsFile } from './init-agents.js';
import { loadEarlyPaint, loadInputSupport, loadPrintMap, loadRewindCli, loadRunAcp, loadRunOneShot, loadRunTui, loadStartSession, loadTreeSitter } from './lazy-modules.js';
import { appPaths } from '../config/paths.js';
import type { CliOptions } from './options.js';
import { parsePlainWords, parseSimpleFlags, type ParsedCommand } from './interpret-args.js';
import { fullScreenRefusal, MAX_NESTING, nestedNote, nestingDepth, tooDeepRefusal } from './nesting.js';
import { startingState } from './starting-state.js';

export interface MainIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly interactive: boolean;
  readonly version: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /**
   * Takes the process's stdout over for a protocol (stream-json, ACP): other writes go to stderr,
   * the returned function writes to stdout. Absent in tests with in-memory output.
   */
  readonly claimStdout?: () => (text: string) => void;
  /** All of stdin as text, for `-p -`; absent where there is no stdin to read. */
  readonly readStdin?: () => Promise<string>;
  /** A yes/no question answered at the terminal; absent when stdin is not one (the answer is then no). */
  readonly confirm?: (question: string) => Promise<boolean>;
}

/** `-p -` (or a lone `-` as the prompt): the task is read from stdin, as in most Unix tools. */
export const STDIN_PROMPT = '-';

export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  const ctx = { cwd: io.cwd, interactive: io.interactive };
  if (argv[0] === ACP_COMMAND) return runAcpCommand(argv.slice(1), io);
  // Plain `lwyrm` (or a prompt in plain words) is the common start; it need not wait for yargs.
  const command = parsePlainWords(argv, ctx) ?? parseSimpleFlags(argv, ctx) ?? (await import('./parse-args.js')).parseArgs(argv, ctx);
  const nested = nestingRefusal(command, io);
  if (nested !== undefined) return nested;
  let verbose = false;
  try {
    switch (command.kind) {
      case 'usage-error':
        io.stderr(`lwyrm: ${command.message}\nTry 'lwyrm --help' for the list of options.\n`);
        return 2;
      case 'help':
        io.stdout(helpText());
        return 0;
      case 'version':
        io.stdout(`${io.version}\n`);
        return 0;
      case 'init': {
        const result = await writeStarterAgentsFile(command.cwd);
        if (result.written) {
          io.stdout(`${initMessage(result)}\n`);
          return 0;
        }
        io.stderr(`lwyrm: ${result.path}: ${result.reason}\n`);
        return 1;
      }
      case 'map': {
        verbose = command.options.verbose;
        const config = await loadConfig({ cwd: command.options.cwd, env: io.env });
        printWarnings(config, io);
        const { printCodeMap } = await loadPrintMap();
        io.stdout(ensureNewline(await printCodeMap(config)));
        return 0;
      }
      case 'rewind': {
        verbose = command.verbose;
        const config = await loadConfig({ cwd: command.cwd, env: io.env });
        printWarnings(config, io);
        const { runRewindCli } = await loadRewindCli();
        const paths = appPaths(io.env);
        return await runRewindCli(
          { ...(command.checkpoint !== undefined ? { checkpoint: command.checkpoint } : {}), ...(command.session !== undefined ? { session: command.session } : {}) },
          config,
          { dataDir: paths.dataDir, sessionsDir: paths.sessionsDir, stdout: io.stdout, stderr: io.stderr, ...(io.confirm ? { confirm: io.confirm } : {}) },
        );
      }
      case 'run':
        verbose = command.options.verbose;
        return await run(command.options, io);
    }
  } catch (error) {
    return reportError(error, io, verbose);
  }
}

/**
 * Inside lindwyrm's own bash tool: no full screen (whether or not a terminal can be had), one-shot
 * runs say so, and past MAX_NESTING levels nothing runs. Undefined: go on.
 */
function nestingRefusal(command: ParsedCommand, io: MainIo): number | undefined {
  const depth = nestingDepth(io.env);
  if (depth === 0) return undefined;
  const fullScreen =
    (command.kind === 'run' && !command.options.oneShot) || (command.kind === 'usage-error' && command.message.includes('full-screen session'));
  if (fullScreen) {
    io.stderr(`lwyrm: ${fullScreenRefusal(depth)}\n`);
    return 2;
  }
  if (command.kind !== 'run') return undefined;
  if (depth >= MAX_NESTING) {
    io.stderr(`lwyrm: ${tooDeepRefusal(depth)}\n`);
    return 2;
  }
  io.stderr(`lwyrm: ${nestedNote(depth)}\n`);
  return undefined;
}

/**
 * Config warnings go to stderr once, before anything starts. The full screen hides that output,
 * so the session repeats them in its transcript; one-shot mode knows not to (CONFIG_WARNING_PREFIX
 * in src/agent/assemble-session.ts).
 */
function printWarnings(config: Config, io: MainIo): void {
  // Warnings quote key names and values from a cloned project file: escape codes stay visible.
  for (const warning of config.warnings) io.stderr(`lwyrm: warning: ${escapeForDisplay(warning)}\n`);
}

async function run(given: CliOptions, mainIo: MainIo): Promise<number> {
  // From here on a dependency's stray write must not reach a protocol stdout.
  const io = given.outputFormat === 'stream-json' && mainIo.claimStdout ? { ...mainIo, stdout: mainIo.claimStdout() } : mainIo;
  // A signal before the run's own handlers exist still ends a stream with its result line.
  const stopEarly = given.outputFormat === 'stream-json' && io !== mainIo ? resultOnSignal(io) : undefined;
  try {
    return await runWith(given, io, stopEarly);
  } finally {
    stopEarly?.();
  }
}

async function runWith(given: CliOptions, io: MainIo, stopEarly: (() => void) | undefined): Promise<number> {
  const options = await withStdinPrompt(given, io);
  if (!options) return 2;
  const config = await loadConfig({ cwd: options.cwd, env: io.env });
  printWarnings(config, io);
  hideKeysFromProc(config, io);
  const overruled = options.readOnly ? options.allow.filter((kind) => kind !== 'read') : [];
  if (overruled.length > 0) {
    // The safe flag wins; a script that meant to let the agent work should hear why it cannot.
    io.stderr(`lwyrm: warning: --read-only overrules --allow ${overruled.join(',')}: nothing will be written, deleted or run\n`);
  }
  const preset = findPreset(config, options.model);
  if (!preset.keyOptional && !(await resolveApiKey(preset, io.env))) {
    io.stderr(`lwyrm: ${missingKeyMessage(preset)}\n`);
    // A script reading --json gets its object for this runtime error too, as for any other.
    const json = { ...jsonResult(undefined, undefined, 'error', missingKeyMessage(preset)), preset: preset.name, model: preset.model };
    if (options.oneShot && options.json) io.stdout(`${JSON.stringify(json)}\n`);
    if (options.oneShot && options.outputFormat === 'stream-json') io.stdout(jsonLine(failedStreamResult(json)));
    return 1;
  }
  if (options.oneShot) {
    const { runOneShot } = await loadRunOneShot();
    stopEarly?.();
    return await runOneShot(options, config, io.version);
  }
  // Paint first, then start the engine: both are CPU-bound in one thread, and evaluating the
  // engine's modules beside the view's would only delay the first frame. The first frame is
  // drawn from the config before even the view is loaded (Ink's is then the same frame); a
  // start-up error leaves the screen and is reported as before.
  const state = startingState(options, config, preset);
  const { paintEarlyFrameOnProcess } = await loadEarlyPaint();
  const painted = paintEarlyFrameOnProcess(state, io.env);
  try {
    // The project's prompt history and @ paths, read while the view loads: a failure costs
    // those, never the session.
    const opening = loadInputSupport()
      .then(async (m) => m.openInputSupport(config, io.env, await resolveApiKey(preset, io.env)))
      .catch(ignoreError('open the prompt history'));
    const { runTui } = await loadRunTui();
    const input = await opening;
    // The engine starts once the input is live: evaluating its modules is one long stretch of
    // the only thread, and keys typed at the first frame should echo before it, not after.
    let inputLive: () => void = () => undefined;
    const engine = new Promise<void>((resolve) => (inputLive = resolve)).then(async () => {
      const { startSession, warmHttpClient } = await loadStartSession();
      const started = await startSession(options, config);
      // The first prompt's request should not pay for the HTTP client's first use: warm it while
      // the input is idle (a prompt given on the command line is sent at once and warms it itself).
      // The same for the session's files: a new session's folders and lock, so the save before
      // its first request only writes.
      if (options.prompt === undefined) {
        setTimeout(() => {
          void warmHttpClient();
          void started.session.prepareSave();
        }, HTTP_WARM_UP_MS).unref();
      }
      return started;
    });
    return await runTui(engine, {
      onInputLive: () => inputLive(),
      ...(options.prompt !== undefined ? { initialPrompt: options.prompt } : {}),
      startingState: state,
      ...(painted ? { painted } : {}),
      ...(input ?? {}),
      // Highlighting uses the code map's grammars, loaded once for both, when code first shows.
      grammars: async (grammar) => (await loadTreeSitter()).createParser(grammar),
    });
  } finally {
    // A no-op once the view has taken the screen over.
    painted?.abandon();
  }
}

/** How long after the session is up the HTTP client is warmed: after the frame that says so. */
const HTTP_WARM_UP_MS = 150;

/** Proxy variables hold credentials only sometimes (user:pass@host); those are keys too. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'];

/**
 * A command's /proc/$PPID/environ is this process's start-up environment: the keys in it are
 * overwritten (src/sandbox/scrub-environ.ts). Only for the real process environment.
 */
function hideKeysFromProc(config: Config, io: MainIo): void {
  if (io.env !== process.env) return;
  const names = [...config.secretEnvNames, ...PROXY_VARIABLES.filter((n) => io.env[n]?.includes('@'))];
  const outcome = scrubExecEnvironment(names);
  if (outcome.error) io.stderr(`lwyrm: warning: commands run without the sandbox may read API keys from /proc: ${escapeForDisplay(outcome.error)}\n`);
}

async function withStdinPrompt(options: CliOptions, io: MainIo): Promise<CliOptions | undefined> {
  if (options.prompt !== STDIN_PROMPT || !options.oneShot) return options;
  if (options.inputFormat === 'stream-json') {
    io.stderr('lwyrm: -p - reads the task as plain text, --input-format stream-json as JSON lines: use one of them\n');
    return undefined;
  }
  const text = ((await io.readStdin?.()) ?? '').trim();
  if (!text) {
    io.stderr('lwyrm: -p - reads the task from stdin, but stdin was empty; pipe the task in, e.g. echo "fix the tests" | lwyrm -p -\n');
    return undefined;
  }
  return { ...options, prompt: text };
}

/** Until removed: SIGINT, SIGTERM or SIGHUP prints an interrupted result line and exits with the signal's status. */
function resultOnSignal(io: MainIo): () => void {
  const statuses = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
  const handlers = Object.entries(statuses).map(([signal, status]) => {
    const handler = (): void => {
      const json = jsonResult(undefined, undefined, 'interrupted', 'Interrupted before the session started.');
      io.stdout(jsonLine({ ...failedStreamResult(json), exit_status: status }));
      process.exit(status);
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

/** `lwyrm acp`: an ACP agent on stdio; the session flags set its defaults (-m, --allow, --read-only …). */
export const ACP_COMMAND = 'acp';

async function runAcpCommand(rest: readonly string[], io: MainIo): Promise<number> {
  // stdout is the protocol from the first byte: whatever else writes to it goes to stderr.
  io.claimStdout?.();
  const command = (await import('./parse-args.js')).parseArgs(rest, { cwd: io.cwd, interactive: true });
  const usage = (message: string): number => {
    io.stderr(`lwyrm acp: ${message}\nTry 'lwyrm --help' for the list of options.\n`);
    return 2;
  };
  if (command.kind === 'usage-error') return usage(command.message);
  if (command.kind !== 'run') return usage('takes session options only (-m, --allow, --read-only, --no-save, --thinking, --proxy, -v)');
  const o = command.options;
  if (o.prompt !== undefined || o.oneShot) return usage('takes no prompt: the editor sends the prompts');
  if (o.json || o.out !== undefined || o.outputFormat || o.inputFormat) return usage('speaks JSON-RPC on stdio; --json, --out and the formats do not apply');
  if (o.continueLast || o.resume) return usage('the editor picks the session (session/load); --continue and --resume do not apply');
  try {
    const { runAcp } = await loadRunAcp();
    return await runAcp(o, { version: io.version, env: io.env });
  } catch (error) {
    return reportError(error, io, o.verbose);
  }
}

function reportError(error: unknown, io: MainIo, verbose: boolean): number {
  const err = error instanceof Error ? error : new Error(String(error));
  const exitCode = (err as { exitCode?: unknown }).exitCode;
  io.stderr(`lwyrm: ${escapeForDisplay(err.message)}\n`);
  if (verbose && err.stack) io.stderr(`${err.stack}\n`);
  return typeof exitCode === 'number' ? exitCode : 1;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
