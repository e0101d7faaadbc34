/**
 * The slash commands an editor can offer over ACP: the engine's own registry (built-in commands
 * and any registered at runtime), less those that only make sense on the full screen (leaving,
 * switching the conversation, panels).
 */
import { BUILTIN_SLASH_INFO } from '../slash/builtin-info.js';
import type { SlashCommandInfo } from '../slash/types.js';

/** Full-screen only: /exit leaves the screen, /clear and /sessions replace the conversation the editor shows. */
const SCREEN_ONLY = new Set(['/exit', '/quit', '/clear', '/sessions', '/markdown']);

interface Command {
  readonly name: string;
  readonly description: string;
  readonly input?: { readonly hint: string };
}

/** `commands`: the engine's (engine.slash.list()); the built-in ones by default. */
export function availableCommands(commands: readonly SlashCommandInfo[] = BUILTIN_SLASH_INFO): Command[] {
  return commands.flatMap((c) => {
    if (SCREEN_ONLY.has(c.name)) return [];
    return [{ name: c.name.slice(1), description: c.help, ...(c.args ? { input: { hint: c.args } } : {}) }];
  });
}

/** The prompt as a command line when it is one of ours ("/model flash"), else undefined. */
export function slashCommandOf(text: string, commands: readonly SlashCommandInfo[] = BUILTIN_SLASH_INFO): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const word = trimmed.split(/\s+/, 1)[0]!;
  return commands.some((c) => (c.name === word || c.aliases?.includes(word)) && !SCREEN_ONLY.has(c.name)) ? trimmed : undefined;
}
