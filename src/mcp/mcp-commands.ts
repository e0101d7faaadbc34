/**
 * MCP in the slash registry: `/mcp [reconnect NAME]`, the servers' lines in the /context panel,
 * and one `/SERVER:PROMPT` command per prompt the servers offer, registered as each server comes
 * up and replaced when its prompt list changes.
 */
import type { SlashRegistry } from '../slash/registry.js';
import type { SlashCommand, SlashContext, SlashReply } from '../slash/types.js';
import { formatMcpPanel, mcpContextLines } from './mcp-panel.js';
import { promptCommands } from './prompt-command.js';
import type { SessionMcp } from './session-mcp.js';

const NONE = 'No MCP servers configured. Add [[mcp.servers]] entries to your config (see examples/lindwyrm.example.toml).';

function mcpCommand(mcp: SessionMcp | undefined): SlashCommand {
  return {
    name: '/mcp',
    args: '[reconnect NAME]',
    choices: ['reconnect'],
    help: 'MCP servers: status, tool count and token cost of each; reconnect one',
    async run({ session, args }: SlashContext): Promise<SlashReply> {
      if (!mcp) return { kind: 'panel', panel: 'mcp', text: NONE };
      const window = session.runtime.preset.contextWindow;
      const [sub, name] = args;
      if (sub === 'reconnect') {
        if (!name) return { kind: 'error', text: 'Usage: /mcp reconnect NAME' };
        try {
          await mcp.manager.reconnect(name);
        } catch (error) {
          return { kind: 'error', text: `/mcp reconnect ${name}: ${error instanceof Error ? error.message : String(error)}` };
        }
        const note = `Reconnected ${name}. A changed tool list applies at the next prefix rewrite (/compact, /clear, /model).`;
        return { kind: 'panel', panel: 'mcp', text: [note, ...formatMcpPanel(mcp.manager, mcp.toolSet(window))].join('\n') };
      }
      if (sub) return { kind: 'error', text: 'Usage: /mcp [reconnect NAME]' };
      return { kind: 'panel', panel: 'mcp', text: formatMcpPanel(mcp.manager, mcp.toolSet(window)).join('\n') };
    },
  };
}

/** Registers the MCP commands with the session's registry; returns what removes them all. */
export function registerMcpCommands(slash: SlashRegistry, mcp: SessionMcp | undefined, log?: (line: string) => void): () => void {
  const removers = [slash.register(mcpCommand(mcp))];
  if (!mcp) return () => removers.forEach((r) => r());
  removers.push(slash.extendPanel('context', ({ session }) => mcpContextLines(mcp.manager, mcp.toolSet(session.runtime.preset.contextWindow))));
  // The prompts as registered now, by name, with what they were made from.
  const registered = new Map<string, { readonly key: string; readonly remove: () => void }>();
  const sync = (): void => {
    const wanted = new Map(promptCommands(mcp.manager).map((c) => [c.name, c]));
    for (const [name, entry] of registered) {
      const next = wanted.get(name);
      if (next && keyOf(next) === entry.key) continue;
      entry.remove();
      registered.delete(name);
    }
    for (const [name, command] of wanted) {
      if (registered.has(name)) continue;
      try {
        registered.set(name, { key: keyOf(command), remove: slash.register(command) });
      } catch (error) {
        // A name another part registered first keeps its owner.
        log?.(`mcp: ${name} is not offered as a command: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  sync();
  removers.push(mcp.manager.onChange(sync));
  return () => {
    removers.forEach((r) => r());
    registered.forEach((entry) => entry.remove());
    registered.clear();
  };
}

const keyOf = (c: SlashCommand): string => JSON.stringify([c.args, c.help]);
