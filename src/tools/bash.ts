/**
 * bash: runs a command in the project root under the bash policy, in the command sandbox where
 * one runs (src/sandbox/), streaming its output live.
 */
import { homedir } from 'node:os';
import { authorize, decideForPath } from '../policy/gate.js';
import { decideBashWithFloor, type BashDecision } from '../policy/bash-policy.js';
import { grantText, judgeSegments, proposeGrants, type GrantProposal, type SegmentVerdict, type SourcedGrant } from '../policy/bash-grants.js';
import { parseCommand } from '../policy/bash-segments.js';
import { askAgainForBuildFiles } from '../policy/build-file-watch.js';
import { escapeForDisplay } from '../policy/escape.js';
import { neutralGitEnv } from '../policy/git-env.js';
import { resolvePath } from '../policy/resolve-path.js';
import type { Config } from '../config/types.js';
import { decideInSandbox } from '../sandbox/bash-in-sandbox.js';
import { noSandbox } from '../sandbox/create-sandbox.js';
import { asShellCommand } from '../sandbox/shell-command.js';
import { SandboxRefusal, type WrappedCommand } from '../sandbox/types.js';
import { secretEnvNames } from '../secrets/secret-names.js';
import { arg, optional } from './args.js';
import { defineTool, stringField } from './define-tool.js';
import { NESTING_VARIABLE, nestingDepth } from '../cli/nesting.js';
import { findOnPath } from './find-on-path.js';
import { OutputCapture } from './output-capture.js';
import { runInGroup } from './process-group.js';
import { openLimit } from './process-limit.js';
import { failure } from './results.js';
import { absent } from '../diagnostics/ignore-error.js';
import type { ToolContext } from './types.js';

/**
 * The environment for a command: the user's, minus every variable that may hold a provider key,
 * and asking for plain output. What a command prints goes to the model and the transcript, not to
 * a terminal: colour codes would cost tokens and show as escapes, and a forced colour setting in
 * the user's shell (FORCE_COLOR, CLICOLOR_FORCE) would otherwise make tools emit them into a pipe.
 */
export function commandEnv(config: Config): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of secretEnvNames(config)) delete env[name];
  for (const name of FORCED_COLOUR) delete env[name];
  env['NO_COLOR'] = '1';
  // lindwyrm started from here knows it: it refuses the full screen (src/cli/nesting.ts).
  env[NESTING_VARIABLE] = String(nestingDepth(process.env) + 1);
  return env;
}

const FORCED_COLOUR = ['FORCE_COLOR', 'CLICOLOR_FORCE'] as const;

/** The longest delay setTimeout honours (about 24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

async function shellPath(): Promise<string> {
  return (await findOnPath('bash')) ?? '/bin/sh';
}

/**
 * A command that runs unseen (allowlisted, or covered by grants and saved rules) must mean what
 * its plain arguments look like: a name inside the project that is a link out of it (a cloned repo
 * can carry `notes.txt -> ~/.ssh/id_rsa`) or a hard-linked file would let `cat notes.txt` read
 * outside without a prompt, and a file the read policy asks about (`.env`, a key) or refuses must
 * not be read by `cat` instead. Those are asked about.
 */
async function checkLinkedArguments(command: string, decision: BashDecision, ctx: ToolContext): Promise<BashDecision> {
  if (decision.allowlisted === undefined) return decision;
  for (const segment of parseCommand(command).segments) {
    for (const word of segment.words.slice(1)) {
      const value = word.startsWith('-') ? word.slice(word.indexOf('=') + 1) : word;
      if (value === '' || value.startsWith('-')) continue;
      const resolved = await resolvePath(value, ctx.projectRoot).catch(absent);
      if (resolved === undefined) continue;
      const by = decision.allowlisted.startsWith('covered ') ? decision.allowlisted : `allowlist: ${decision.allowlisted}`;
      // Not only existing names: `touch docs/more/x` through a link out would create a file outside.
      if (!resolved.inside || resolved.multiLinked) {
        const why = resolved.multiLinked ? 'is hard-linked (it may be a file outside the project)' : `leads outside the project, to ${resolved.realPath}`;
        return { level: 'confirm', reason: `${by}, but ${word} ${why}` };
      }
      const read = resolved.exists && !resolved.isDirectory ? decideForPath(ctx, 'read', resolved) : undefined;
      if (read !== undefined && read.level !== 'allow') {
        return { level: 'confirm', reason: `${by}, but reading ${word} is not allowed silently (${read.reason})` };
      }
    }
  }
  return decision;
}

/** The grants in force for a command: this session's, then the saved rules (the user's own when the project is untrusted). */
function grantsInForce(ctx: ToolContext): { grants: SourcedGrant[]; allowlist: readonly string[] } {
  const own = ctx.config.policyFloor ?? ctx.config.policy;
  return {
    grants: [
      ...ctx.sessionGrants.bash().map((g): SourcedGrant => ({ ...g, source: 'grant' })),
      ...own.bashRules.map((r): SourcedGrant => ({ ...r, source: 'saved rule' })),
    ],
    allowlist: own.bashAllowlist,
  };
}

/** A confirm every segment of which a grant, saved rule or allowlist entry covers is an allow. */
function decideWithGrants(command: string, ctx: ToolContext): { decision: BashDecision; proposal?: GrantProposal } {
  const decision = decideBashWithFloor(command, ctx.config.policy, ctx.config.policyFloor);
  if (decision.level !== 'confirm') return { decision };
  const { grants, allowlist } = grantsInForce(ctx);
  const judged = judgeSegments(command, grants, allowlist);
  if (judged.covered) {
    const by = judged.segments.map((s) => (s.by === undefined ? '' : s.by.source === 'allowlist' && 'entry' in s.by ? `allowlist: ${s.by.entry}` : `${s.by.source}: ${grantText(s.by as SourcedGrant)}`));
    const covered = `covered per command by ${[...new Set(by)].join(', ')}`;
    return { decision: { level: 'allow', reason: `${decision.reason}; ${covered}`, allowlisted: covered } };
  }
  return { decision: withAskedBecause(decision, judged.segments, grants.length + allowlist.length > 0), proposal: proposeGrants(command, grants, allowlist) };
}

/**
 * With grants or rules in force, an ask says which part none of them covers and why ("asked
 * again because …"), so a prompt after [a]lways is not a mystery.
 */
function withAskedBecause(decision: BashDecision, segments: readonly SegmentVerdict[], anyInForce: boolean): BashDecision {
  const open = segments.filter((s) => s.by === undefined);
  const [first] = open;
  if (!anyInForce || first === undefined) return decision;
  const text = first.text.replace(/\s*\n\s*/g, ' ⏎ ');
  const part = text.length > 80 ? `${text.slice(0, 79)}…` : text;
  const more = open.length > 1 ? ` (and ${open.length - 1} more part${open.length > 2 ? 's' : ''})` : '';
  return { ...decision, reason: `${decision.reason}; asked because ${part}${more}: ${first.why ?? 'nothing in force covers it'}` };
}

/** The decision for a command as a call gets it, with what [a]lways would grant when it is asked. */
export async function decideCommand(command: string, ctx: ToolContext): Promise<{ decision: BashDecision; proposal?: GrantProposal }> {
  const judged = decideWithGrants(command, ctx);
  const decision = await checkLinkedArguments(command, judged.decision, ctx);
  if (decision.level !== 'confirm') return { decision };
  // A covered command sent back to the prompt (a link out) gets the usual [a]lways offer.
  const { grants, allowlist } = grantsInForce(ctx);
  return { decision, proposal: judged.proposal ?? proposeGrants(command, grants, allowlist) };
}

/** Past this, a line without its end is shown cut: waiting would hold (and re-copy) all of it. */
export const MAX_LIVE_LINE = 8192;

/** "no output", "1 line of output", "12 lines of output": what the count counts, in the singular when it is one. */
export function outputLines(n: number): string {
  return n === 0 ? 'no output' : `${n} line${n === 1 ? '' : 's'} of output`;
}

/** Splits a stream into whole lines for the live view; the partial tail waits for the rest. */
export function lineSplitter(emit: (lines: string) => void) {
  let pending = '';
  // The rest of an overlong line is dropped from the live view (the result keeps head and tail).
  let skipping = false;
  return {
    push(text: string) {
      if (skipping) {
        const nl = text.indexOf('\n');
        if (nl === -1) return;
        skipping = false;
        text = text.slice(nl + 1);
      }
      const all = pending + text;
      const cut = all.lastIndexOf('\n');
      pending = cut === -1 ? all : all.slice(cut + 1);
      if (cut !== -1) emit(all.slice(0, cut + 1));
      if (pending.length > MAX_LIVE_LINE) {
        emit(`${pending.slice(0, MAX_LIVE_LINE)} … [rest of this line not shown live]\n`);
        pending = '';
        skipping = true;
      }
    },
    flush() {
      if (pending !== '') emit(pending + '\n');
      pending = '';
    },
  };
}

export const bashTool = defineTool({
  name: 'bash',
  description:
    'Run a shell command (bash) in the project root. stdin is closed. Output is stdout and stderr interleaved, with the exit code. Default timeout 120000 ms; the whole process tree is killed when it runs out.',
  args: {
    command: arg.string('The command line to run.', { nonEmpty: true }),
    // Node's timers overflow past 2^31-1 ms and then fire at once: a "longer" limit would kill at once.
    timeout_ms: optional(arg.integer('Time limit in milliseconds (default from config, 120000).', { min: 1, max: MAX_TIMEOUT_MS })),
  },
  kind: 'bash',
  bulk: true,
  title: (input) => stringField(input, 'command'),
  detail: (input) => stringField(input, 'command'),
  subject: () => 'command',
  async run(args, ctx) {
    const command = args.command;
    // A process argument cannot hold NUL: refuse it before asking, not after the user said yes.
    if (command.includes('\0')) return failure('bash: argument "command" contains a NUL character, which no command line can carry.', undefined, 'invalid_args');
    const timeoutMs = args.timeout_ms ?? Math.min(ctx.config.bashTimeoutMs, MAX_TIMEOUT_MS);
    const sandbox = ctx.sandbox ?? noSandbox(() => ctx.config);
    const sandboxStatus = await sandbox.ready();
    const sandboxed = sandboxStatus.state === 'on' && ctx.config.sandbox.mode !== 'off';
    // Refused before the user is asked: a yes could not make it run.
    if (!sandboxed && ctx.config.sandbox.mode === 'required') {
      const why = sandboxStatus.state === 'unavailable' ? `${sandboxStatus.cause}. Fix: ${sandboxStatus.fix}` : 'the sandbox is off';
      return failure(`Not run: sandbox = "required", but the sandbox cannot start here: ${why}.`, undefined, 'unavailable');
    }
    // The policy with this session's grants and the saved rules, asked again when a build file it
    // runs changed, then what the sandbox allows.
    const judged = await decideCommand(command, ctx);
    const asked = askAgainForBuildFiles(ctx.buildFiles, command, judged.decision);
    const decision = decideInSandbox(asked, { command, settings: ctx.config.sandbox, sandboxed, projectRoot: ctx.projectRoot, home: process.env['HOME'] || homedir() });
    const proposal = decision.level === 'confirm' ? judged.proposal : undefined;
    const firstLine = command.split('\n', 1)[0] ?? command;
    const lineCount = command.replace(/\n+$/, '').split('\n').length;
    const gate = await authorize(ctx, {
      kind: 'bash',
      tool: 'bash',
      decision,
      command,
      summary: `run ${firstLine.length > 80 ? `${firstLine.slice(0, 77)}...` : firstLine}${lineCount > 1 ? ` (${lineCount} lines)` : ''}`,
      ...(proposal !== undefined ? { proposal } : {}),
    });
    if (!gate.ok) return gate.result;
    if (asked !== judged.decision) ctx.buildFiles?.seen(command);

    const env = commandEnv(ctx.config);
    if (judged.decision.allowlisted !== undefined && parseCommand(command).segments.some((seg) => /(^|\/)git$/.test(seg.words[0] ?? ''))) {
      Object.assign(env, await neutralGitEnv(ctx.projectRoot));
    }
    // The process limit is set here for a command run unsandboxed on this machine; the sandbox and
    // an editor's terminal hold their own, and a fork they refuse is noticed the same way.
    const limit = await openLimit(ctx.signal, { enforce: !sandboxed && ctx.commands === undefined });
    let wrapped: WrappedCommand;
    try {
      wrapped = await sandbox.wrap({ argv: [await shellPath(), '-c', `${limit.prelude}${command}`], cwd: ctx.projectRoot, env, tool: 'bash' });
    } catch (error) {
      await limit.release();
      if (error instanceof SandboxRefusal) return failure(`Not run: ${error.message}`, undefined, 'unavailable');
      throw error;
    }
    const capture = new OutputCapture(ctx.config.maxToolOutputChars);
    const live = lineSplitter((lines) => ctx.onOutput?.(escapeForDisplay(wrapped.redact(lines))));
    const onData = (text: string): void => {
      limit.observe(text);
      capture.push(text);
      live.push(text);
    };
    const buildBefore = await ctx.buildFiles?.fingerprint(command);
    let run;
    try {
      // The editor's terminal (ACP) takes a shell line: a sandboxed command goes as one, so it runs
      // in the same sandbox there as here.
      run = await (ctx.commands
        ? ctx.commands.run({
            ...(wrapped.sandboxed ? { shell: '/bin/sh', command: asShellCommand(wrapped, env) } : { shell: await shellPath(), command }),
            cwd: wrapped.cwd,
            env: wrapped.env,
            timeoutMs,
            signal: limit.signal,
            onData,
          })
        : runInGroup({ argv: wrapped.argv, cwd: wrapped.cwd, env: wrapped.env, timeoutMs, signal: limit.signal, onData }));
    } finally {
      await limit.release();
    }
    const hit = limit.hit();
    const outcome = hit ? { ...run, interrupted: false } : run;
    live.flush();
    await wrapped.cleanup();
    if (buildBefore !== undefined) await ctx.buildFiles?.compare(buildBefore);
    const output = wrapped.redact(capture.text());
    let status: string;
    if (hit) status = `[stopped: it reached the limit of ${limit.limit} processes at once (a fork bomb?); the command and its child processes were killed]`;
    else if (outcome.interrupted) status = '[interrupted: the command and its child processes were stopped]';
    else if (outcome.timedOut) status = `[timed out after ${timeoutMs} ms: the command and its child processes were killed]`;
    else if (outcome.exitCode !== null) status = `[exit code ${outcome.exitCode}]`;
    else status = `[killed by ${outcome.exitSignal ?? 'a signal'}]`;
    const trim = (text: string): string => (text === '' ? '(no output)' : text.endsWith('\n') ? text.slice(0, -1) : text);
    const body = trim(output);
    const ok = !hit && !outcome.interrupted && !outcome.timedOut && outcome.exitCode === 0;
    const summary = hit
      ? `stopped at the process limit (${limit.limit})`
      : outcome.interrupted
        ? 'interrupted'
        : outcome.timedOut
          ? `timed out after ${Math.round(timeoutMs / 1000)} s`
          : `exit ${outcome.exitCode ?? outcome.exitSignal}, ${outputLines(capture.lines)}`;
    const failed = outcome.interrupted ? 'interrupted' : outcome.timedOut ? 'timeout' : 'failed';
    // Also after a zero exit: a failed step in the middle of a script is worth the note too.
    const notes = outcome.interrupted ? [] : wrapped.failureNotes(output);
    const content = [body, status, ...notes].join('\n');
    // Clipped for the context only: the snapshot of an offloaded result keeps what was printed.
    const cut = capture.wholeCut();
    const whole = capture.clipped ? { whole: [trim(wrapped.redact(capture.whole())), status, ...notes].join('\n'), ...(cut ? { wholeCut: cut } : {}) } : {};
    return { ok, ...(ok ? {} : { failure: failed }), content, ...whole, summary, interrupted: outcome.interrupted || undefined };
  },
});
