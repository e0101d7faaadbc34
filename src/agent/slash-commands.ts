/**
 * Slash commands: the engine implements their effect; the view decides how to show the result.
 */
import { homedir } from 'node:os';
import type { CliOptions } from '../cli/options.js';
import { writeStarterAgentsFile } from '../cli/init-agents.js';
import { resolveConfigPath } from '../config/resolve-path.js';
import type { Level, PathKind, PathRule, PolicySettings, Preset } from '../config/types.js';
import { formatContextPanel } from '../context/format-context-panel.js';
import { redactProxyUrl } from '../providers/proxy.js';
import type { ModelClient, ThinkingEffort } from '../providers/types.js';
import type { SessionStore } from '../sessions/types.js';
import type { LindwyrmEngine, SessionData } from './engine.js';
import type { ToolRunner } from './ports.js';
import { recordToData } from './session-record.js';
import type { SlashResult } from './state.js';
import { formatRewindStats } from '../rewind/format.js';
import { runRewindCommand } from '../rewind/rewind-command.js';
import type { Rewind } from '../rewind/rewind-service.js';

export interface SlashDeps {
  readonly cli: CliOptions;
  readonly store?: SessionStore;
  readonly projectRoot: string;
  /** A preset made ready to use: client, tools and prompt for it. */
  resolvePreset(name: string): Promise<{ preset: Preset; client: ModelClient; tools: ToolRunner; system: string; codeMapText?: string }>;
  /** After /model changed the runtime's preset: the context manager takes the new window. */
  presetSwitched?(engine: LindwyrmEngine): Promise<void>;
  /** Switches the engine to another conversation (offloads and context follow it). */
  openSession(engine: LindwyrmEngine, data: SessionData | 'new'): Promise<void>;
  /** Checkpoints of files and conversation (/rewind, and what /context says they hold). */
  readonly rewind?: Rewind;
}

export const SLASH_HELP: readonly (readonly [string, string])[] = [
  ['/model NAME', 'switch to another preset (or ollama:MODEL)'],
  ['/presets', 'list the presets you can switch to'],
  ['/thinking [on|off]', 'turn the model\'s reasoning on or off'],
  ['/think LEVEL', 'reasoning effort: minimal, low, medium, high, xhigh or max'],
  ['/markdown', 'toggle markdown rendering of answers'],
  ['/perm PATH kind=level…', 'set a path rule for this session, e.g. /perm src write=allow delete=confirm'],
  ['/policy', 'show the permission policy in force'],
  ['/context', 'how full the context is, and what was offloaded'],
  ['/compact [instructions]', 'reclaim context now; instructions tell the summarizer what matters'],
  ['/sessions', 'list this project\'s saved sessions (resume ID, delete ID)'],
  ['/rewind [N]', 'go back to before a prompt: its files, the conversation, or both (Esc Esc)'],
  ['/init', 'write a starter AGENTS.md in the project root'],
  ['/proxy', 'show which proxy the current preset uses'],
  ['/clear', 'start a new session (saved ones are kept)'],
  ['/help', 'this list'],
  ['/exit', 'leave'],
];

const EFFORTS: readonly ThinkingEffort[] = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
const KINDS: readonly PathKind[] = ['read', 'write', 'delete'];
const LEVELS: readonly Level[] = ['allow', 'confirm', 'deny'];

function withRule(policy: PolicySettings, rule: PathRule): PolicySettings {
  const existing = policy.rules.find((r) => r.path === rule.path);
  const merged = existing ? { ...existing, ...rule } : rule;
  return { ...policy, rules: [...policy.rules.filter((r) => r.path !== rule.path), merged] };
}

function describePolicy(policy: PolicySettings): string[] {
  const lines = [
    `read=${policy.read} write=${policy.write} delete=${policy.delete} bash=${policy.bash} read_outside=${policy.readOutside}`,
    `bash allowlist: ${policy.bashAllowlist.length ? policy.bashAllowlist.join(', ') : '(none)'}`,
    `bash denylist: ${policy.bashDenylist.length ? policy.bashDenylist.join(', ') : '(built-in only)'}`,
  ];
  for (const r of policy.rules) {
    const levels = KINDS.flatMap((k) => (r[k] ? [`${k}=${r[k]}`] : [])).join(' ');
    lines.push(`rule ${r.path}: ${levels}`);
  }
  return lines;
}

/** A command that did not do what was asked: the view shows it as an error. */
function fail(output: string): SlashResult {
  return { output, error: true };
}

export function createSlashHandler(deps: SlashDeps): (command: string, engine: LindwyrmEngine) => Promise<SlashResult> {
  return async (command, engine) => {
    const rt = engine.runtime;
    const [name = '', ...args] = command.trim().split(/\s+/);
    const rest = command.trim().slice(name.length).trim();
    const idle = (): SlashResult | undefined => (engine.busy() ? fail(`${name} cannot run while a turn is running.`) : undefined);
    switch (name) {
      case '/help':
        return { output: SLASH_HELP.map(([c, d]) => `${c.padEnd(26)} ${d}`).join('\n') };
      case '/exit':
      case '/quit':
        return { exit: true };
      case '/presets': {
        const lines = rt.config.presets.map(
          (p) => `${p.name === rt.preset.name ? '*' : ' '} ${p.name.padEnd(12)} ${p.format.padEnd(9)} ${p.model || '(the server\'s loaded model)'}`,
        );
        return { output: lines.join('\n'), panel: 'presets' };
      }
      case '/model': {
        if (!rest) return { output: `Current preset: ${rt.preset.name} (${rt.preset.format}, ${rt.preset.model}). Usage: /model NAME` };
        const busy = idle();
        if (busy) return busy;
        try {
          const next = await deps.resolvePreset(rest);
          rt.preset = next.preset;
          rt.client = next.client;
          rt.tools = next.tools;
          rt.toolSchemas = Object.freeze([...next.tools.schemas()]);
          rt.system = next.system;
          rt.codeMapText = next.codeMapText;
          rt.thinking = deps.cli.thinking ?? next.preset.thinking;
          rt.thinkingEffort = deps.cli.thinkingEffort ?? next.preset.thinkingEffort;
          await deps.presetSwitched?.(engine);
          engine.refreshSettings();
          return { output: `Switched to ${next.preset.name} (${next.preset.format}, ${next.preset.model}).` };
        } catch (err) {
          return fail(err instanceof Error ? err.message : String(err));
        }
      }
      case '/thinking': {
        const arg = args[0]?.toLowerCase();
        if (arg && arg !== 'on' && arg !== 'off') return fail('Usage: /thinking [on|off]');
        rt.thinking = arg ? arg === 'on' : !rt.thinking;
        engine.refreshSettings();
        return { output: `Thinking ${rt.thinking ? 'on' : 'off'}.` };
      }
      case '/think': {
        const level = args[0]?.toLowerCase() as ThinkingEffort | undefined;
        if (!level || !EFFORTS.includes(level)) return fail(`Usage: /think ${EFFORTS.join('|')} (now ${rt.thinkingEffort ?? 'the provider default'})`);
        rt.thinkingEffort = level;
        engine.refreshSettings();
        return { output: `Thinking effort ${level}.` };
      }
      case '/markdown':
        rt.markdown = !rt.markdown;
        engine.refreshSettings();
        return { output: `Markdown ${rt.markdown ? 'on' : 'off'}.` };
      case '/perm': {
        const [path, ...pairs] = args;
        if (!path || !pairs.length) return fail('Usage: /perm PATH kind=level … (kinds read, write, delete; levels allow, confirm, deny)');
        const rule: { path: string } & Partial<Record<PathKind, Level>> = {
          path: resolveConfigPath(path, deps.projectRoot, process.env['HOME'] || homedir()),
        };
        for (const pair of pairs) {
          const [kind, level] = pair.split('=') as [PathKind, Level];
          if (!KINDS.includes(kind) || !LEVELS.includes(level)) return fail(`Not a rule: ${pair}. Write kind=level, e.g. write=allow.`);
          rule[kind] = level;
        }
        const c = rt.config;
        // The user's own rule applies to their floor too, or an untrusted project's floor would veto it.
        rt.config = { ...c, policy: withRule(c.policy, rule), ...(c.policyFloor ? { policyFloor: withRule(c.policyFloor, rule) } : {}) };
        engine.refreshSettings();
        return { output: `Rule for this session: ${rule.path} ${pairs.join(' ')}` };
      }
      case '/policy': {
        const lines = describePolicy(rt.config.policy);
        if (rt.readOnly) lines.unshift('read-only session: no writes, deletes or commands');
        if (rt.preApproved.size) lines.push(`pre-approved for this run (--allow): ${[...rt.preApproved].join(', ')}`);
        if (rt.sessionGrants.size) lines.push(`answered [a]lways this session: ${[...rt.sessionGrants].join(', ')}`);
        return { output: lines.join('\n'), panel: 'policy' };
      }
      case '/context': {
        const stats = await rt.context.stats(rt.session.history, rt.system);
        const rewind = deps.rewind ? formatRewindStats(await deps.rewind.stats()) : [];
        return { output: [...formatContextPanel(stats), ...rewind].join('\n'), panel: 'context' };
      }
      case '/rewind': {
        if (!deps.rewind) return fail('Rewind is not available here.');
        const result = await runRewindCommand(args, {
          rewind: deps.rewind,
          busy: () => engine.busy(),
          conversation: () => engine.conversation(),
          restoreConversation: (state) => engine.restoreConversation(state),
        });
        return {
          output: result.text,
          ...(result.error ? { error: true } : {}),
          ...(result.view ? { rewind: result.view } : {}),
          ...(result.input !== undefined ? { input: result.input } : {}),
        };
      }
      case '/compact': {
        const busy = idle();
        if (busy) return busy;
        const result = await rt.context.compact(rt.session.history, rt.system, rest || undefined);
        if (result.action === 'none') return { output: result.detail ?? 'Nothing to compact yet.' };
        rt.session.history.splice(0, rt.session.history.length, ...result.messages);
        // A summary rewrote the prefix: refresh the prompt's snapshots (an offload alone did not).
        if (result.action === 'summarized') engine.refreshPrompt();
        await engine.persist();
        return { output: result.detail ?? `Context ${result.action}.` };
      }
      case '/sessions':
        return sessionsCommand(deps, engine, args);
      case '/init': {
        const result = await writeStarterAgentsFile(deps.projectRoot);
        return result.written ? { output: `Wrote ${result.path}. Fill in your commands and conventions; keep it short.` } : fail(`${result.path}: ${result.reason}`);
      }
      case '/proxy': {
        const setting = deps.cli.proxy ?? rt.preset.proxy ?? rt.config.proxy;
        const where = deps.cli.proxy ? '--proxy' : rt.preset.proxy !== undefined ? `preset ${rt.preset.name}` : 'global setting';
        const shown = setting === undefined || setting === false ? 'direct (no proxy)' : setting === 'system' ? 'the system proxy variables' : redactProxyUrl(setting);
        return { output: `${rt.preset.name} → ${rt.preset.baseUrl}: ${shown} (${where}). localhost is always reached directly.` };
      }
      case '/clear': {
        const busy = idle();
        if (busy) return busy;
        await deps.openSession(engine, 'new');
        return { output: `New session ${engine.runtime.session.id}. Saved sessions are kept.` };
      }
      default:
        return fail(`Unknown command ${name}. /help lists the commands.`);
    }
  };
}

async function sessionsCommand(deps: SlashDeps, engine: LindwyrmEngine, args: readonly string[]): Promise<SlashResult> {
  const store = deps.store;
  if (!store) return fail('Sessions are not saved in this run (--no-save).');
  const [sub, id] = args;
  if (sub === 'resume' || sub === 'delete') {
    if (!id) return fail(`Usage: /sessions ${sub} ID`);
    if (engine.busy()) return fail('/sessions cannot run while a turn is running.');
    try {
      if (sub === 'delete') {
        if (id === engine.runtime.session.id) return fail('That is the session in use; /clear first.');
        await store.delete(id);
        return { output: `Deleted session ${id}.` };
      }
      const record = await store.load(id);
      await deps.openSession(engine, recordToData(record));
      return { output: `Resumed session ${record.id} (${record.turns} turns).` };
    } catch (err) {
      return fail(err instanceof Error ? err.message : String(err));
    }
  }
  const list = await store.list();
  const rows = list.sessions.map(
    (s) => `${s.id}  ${s.updatedAt}  ${s.turns} turns  ${s.tokens} tokens${s.cost === null ? '' : `  $${s.cost.toFixed(4)}`}  ${s.firstPrompt.replace(/\s+/g, ' ').slice(0, 60)}`,
  );
  const text = [...(rows.length ? rows : ['No saved sessions in this project yet.']), ...list.problems].join('\n');
  return { output: text, panel: 'sessions', sessions: list.sessions };
}
