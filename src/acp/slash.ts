/**
 * The slash commands an editor can offer over ACP: the engine's own (one list, SLASH_HELP), less
 * those that only make sense on the full screen (leaving, switching the conversation, panels).
 */
import { SLASH_HELP } from '../agent/slash-commands.js';

/** Full-screen only: /exit leaves the screen, /clear and /sessions replace the conversation the editor shows. */
const SCREEN_ONLY = new Set(['/exit', '/quit', '/clear', '/sessions', '/markdown']);

interface Command {
  readonly name: string;
  readonly description: string;
  readonly input?: { readonly hint: string };
}

function entries(): Command[] {
  return SLASH_HELP.flatMap(([usage, description]) => {
    const [word = '', ...rest] = usage.split(' ');
    if (SCREEN_ONLY.has(word)) return [];
    const hint = rest.join(' ');
    return [{ name: word.slice(1), description, ...(hint ? { input: { hint } } : {}) }];
  });
}

export function availableCommands(): Command[] {
  return entries();
}

/** The prompt as a command line when it is one of ours ("/model flash"), else undefined. */
export function slashCommandOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const word = trimmed.split(/\s+/, 1)[0]!.slice(1);
  return entries().some((c) => c.name === word) ? trimmed : undefined;
}
