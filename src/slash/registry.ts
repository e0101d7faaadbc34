/**
 * The one slash-command registry: the built-in commands, and whatever registers at runtime.
 * Running a command goes through here, so every command gets the same parsing, the same refusal
 * while a turn runs, and the same answer for a name nobody registered.
 */
import type { SlashResult } from '../agent/state.js';
import type { SlashCommand, SlashCommandInfo, SlashContext, SlashEnv, SlashReply } from './types.js';

export interface SlashRegistry {
  /** Adds a command; returns what removes it again. A name (or alias) already taken is refused. */
  register(command: SlashCommand): () => void;
  find(name: string): SlashCommand | undefined;
  /** Every command as plain data, in registration order. */
  list(): readonly SlashCommandInfo[];
  /** Called after a command came or went. */
  onChange(listener: () => void): () => void;
  /**
   * Adds lines to every reply shown in `panel` ('context'): a part that owns some of what a
   * built-in panel reports (the MCP servers' tool schemas) says it there. Returns what removes them.
   */
  extendPanel(panel: string, lines: PanelLines): () => void;
  run(text: string, env: SlashEnv): Promise<SlashResult>;
}

/** Lines a part adds to a panel, worked out when the panel is asked for. */
export type PanelLines = (ctx: SlashContext) => readonly string[] | Promise<readonly string[]>;

const NAME = /^\/[A-Za-z0-9][\w.:-]*$/;

/** The plain-data part of a command, as the view gets it. */
export function infoOf(command: SlashCommand): SlashCommandInfo {
  const { run: _run, ...info } = command;
  return info;
}

/** The engine's answer shape for a tagged reply: the view reads output / error / panel / exit / prompt. */
export function toSlashResult(reply: SlashReply): SlashResult {
  switch (reply.kind) {
    case 'text':
      return { kind: 'text', output: reply.text };
    case 'error':
      return { kind: 'error', output: reply.text, error: true };
    case 'panel':
      return { kind: 'panel', output: reply.text, panel: reply.panel };
    case 'sessions':
      return { kind: 'sessions', output: reply.text, panel: 'sessions', sessions: reply.sessions };
    case 'prompt':
      return { kind: 'prompt', prompt: reply.text };
    case 'rewind':
      return { kind: 'rewind', output: reply.text, rewind: reply.view };
    case 'rewound':
      return { kind: 'rewound', output: reply.text, ...(reply.input !== undefined ? { input: reply.input } : {}) };
    case 'exit':
      return { kind: 'exit', exit: true };
    default: {
      const unhandled: never = reply;
      return unhandled;
    }
  }
}

export function createSlashRegistry(initial: readonly SlashCommand[] = []): SlashRegistry {
  const commands: SlashCommand[] = [];
  const byName = new Map<string, SlashCommand>();
  const listeners = new Set<() => void>();
  const extensions: { readonly panel: string; readonly lines: PanelLines }[] = [];
  let listed: readonly SlashCommandInfo[] | undefined;
  const changed = (): void => {
    listed = undefined;
    for (const listener of [...listeners]) listener();
  };

  const registry: SlashRegistry = {
    register(command) {
      const names = [command.name, ...(command.aliases ?? [])];
      for (const name of names) {
        if (!NAME.test(name)) throw new Error(`Not a slash command name: ${JSON.stringify(name)} (a / then letters, digits, _ . : -).`);
        if (byName.has(name)) throw new Error(`The slash command ${name} is already registered.`);
      }
      commands.push(command);
      for (const name of names) byName.set(name, command);
      changed();
      return () => {
        const at = commands.indexOf(command);
        if (at < 0) return;
        commands.splice(at, 1);
        for (const name of names) byName.delete(name);
        changed();
      };
    },
    find: (name) => byName.get(name),
    list: () => (listed ??= Object.freeze(commands.map(infoOf))),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    extendPanel(panel, lines) {
      const extension = { panel, lines };
      extensions.push(extension);
      return () => {
        const at = extensions.indexOf(extension);
        if (at >= 0) extensions.splice(at, 1);
      };
    },
    async run(text, env) {
      const trimmed = text.trim();
      const [name = '', ...args] = trimmed.split(/\s+/);
      const rest = trimmed.slice(name.length).trim();
      const command = byName.get(name);
      if (!command) return toSlashResult({ kind: 'error', text: `Unknown command ${name}. /help lists the commands.` });
      const needsIdle = command.idle === 'always' || (command.idle === 'with-arguments' && rest !== '');
      if (needsIdle && env.busy()) return toSlashResult({ kind: 'error', text: `${name} cannot run while a turn is running.` });
      try {
        const ctx: SlashContext = { ...env, name, args, rest };
        const reply = await command.run(ctx);
        if (reply.kind !== 'panel') return toSlashResult(reply);
        const added: string[] = [];
        for (const e of extensions.filter((x) => x.panel === reply.panel)) added.push(...(await e.lines(ctx)));
        return toSlashResult(added.length ? { ...reply, text: [reply.text, ...added].join('\n') } : reply);
      } catch (error) {
        // A command that throws failed like any other: the view shows why, nothing else breaks.
        return toSlashResult({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
      }
    },
  };
  for (const command of initial) registry.register(command);
  return registry;
}
