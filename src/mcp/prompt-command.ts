/**
 * MCP prompts as slash commands: `/SERVER:PROMPT value… | key=value…`. The prompt's messages
 * become the text of the next user turn.
 */
import { escapeForDisplay } from '../policy/escape.js';
import type { SlashCommand } from '../slash/types.js';
import type { McpManager } from './mcp-manager.js';
import { isRecord, type McpPrompt } from './protocol.js';

/** Positional values fill the arguments in order; key=value names one. */
export function promptArguments(prompt: McpPrompt, words: readonly string[]): Record<string, string> {
  const names = (prompt.arguments ?? []).map((a) => a.name);
  const out: Record<string, string> = {};
  let next = 0;
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq > 0 && names.includes(word.slice(0, eq))) out[word.slice(0, eq)] = word.slice(eq + 1);
    else {
      while (next < names.length && out[names[next]!] !== undefined) next++;
      const name = names[next];
      if (name === undefined) {
        // More words than arguments: the rest belongs to the last one.
        const last = names[names.length - 1];
        if (last !== undefined) out[last] = `${out[last] ?? ''} ${word}`.trim();
        continue;
      }
      out[name] = word;
      next++;
    }
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && out[a.name] === undefined).map((a) => a.name);
  if (missing.length) throw new Error(`missing ${missing.join(', ')} (usage: ${(prompt.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ')})`);
  return out;
}

/** The prompt's messages as the text of one user turn. */
export async function expandPrompt(manager: McpManager, server: string, name: string, words: readonly string[]): Promise<string> {
  const conn = manager.connection(server);
  if (!conn) throw new Error(`no MCP server named ${server}`);
  const found = manager.prompts().find((p) => p.server === server && p.prompt.name === name);
  if (!found) throw new Error(`${server} offers no prompt ${name}${conn.prompts.length ? ` (it has: ${conn.prompts.map((p) => p.name).join(', ')})` : ''}`);
  const args = promptArguments(found.prompt, words);
  const result = await conn.run((client) => client.getPrompt(name, args));
  const parts = result.messages.map((msg) => {
    const c = msg['content'];
    const items = Array.isArray(c) ? c : [c];
    return items
      .map((item) => {
        if (!isRecord(item)) return '';
        if (item['type'] === 'text' && typeof item['text'] === 'string') return item['text'];
        const r = item['resource'];
        if (item['type'] === 'resource' && isRecord(r) && typeof r['text'] === 'string') return `[resource ${String(r['uri'])}]\n${r['text']}`;
        return `[${String(item['type'])} content]`;
      })
      .filter(Boolean)
      .join('\n');
  });
  const text = parts.filter(Boolean).join('\n\n').trim();
  if (!text) throw new Error(`${server}:${name} returned no text`);
  return text;
}

/** What the slash registry accepts as a command name (see src/slash/registry.ts). */
const COMMAND_NAME = /^\/[A-Za-z0-9][\w.:-]*$/;

/**
 * Every prompt the servers offer now, as `/SERVER:PROMPT` commands whose reply is the prompt's
 * text, sent as the user's message. A prompt whose name cannot be typed as one word is left out.
 */
export function promptCommands(manager: McpManager): SlashCommand[] {
  return manager.prompts().flatMap(({ server, prompt }) => {
    const name = `/${server}:${prompt.name}`;
    if (!COMMAND_NAME.test(name)) return [];
    const args = (prompt.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
    const about = (prompt.description ?? prompt.title ?? `prompt from ${server}`).replace(/\s+/g, ' ').trim();
    const command: SlashCommand = {
      name,
      ...(args ? { args: escapeForDisplay(args) } : {}),
      // A server's words, shown in help and completion: escaped like its tool output.
      help: escapeForDisplay(about.length > 160 ? `${about.slice(0, 159)}…` : about),
      source: `MCP server ${server}`,
      async run(ctx) {
        try {
          return { kind: 'prompt', text: await expandPrompt(manager, server, prompt.name, ctx.args) };
        } catch (error) {
          return { kind: 'error', text: `${name}: ${error instanceof Error ? error.message : String(error)}` };
        }
      },
    };
    return [command];
  });
}
