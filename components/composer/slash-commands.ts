/**
 * Help, Tab completion and argument hints, all from the engine's list of slash commands
 * (SessionState.commands): a command registered at runtime shows up here like a built-in one. Pure.
 */
import type { SlashCommandInfo } from '../../src/slash/types.js';

export const KEY_HELP: readonly (readonly [string, string])[] = [
  ['Enter', 'send (while a turn runs, the text waits and is sent when it ends)'],
  ['Ctrl+J / Alt+Enter', 'new line in the input'],
  ['↑ / ↓', 'earlier prompts (kept per project); move between lines of a multi-line input'],
  ['Ctrl+R', 'search earlier prompts; Ctrl+R again for older, Enter takes it, Esc cancels'],
  ['Tab / Shift+Tab', 'complete, then cycle: slash commands, their arguments, paths after @'],
  ['Alt+B / Alt+F, Ctrl+← / Ctrl+→', 'a word back / forward'],
  ['Home / End, Ctrl+A / Ctrl+E', 'start / end of the line'],
  ['Ctrl+W, Alt+Backspace, Alt+D', 'delete the word before / the word after'],
  ['Ctrl+U / Ctrl+K', 'delete to the start / to the end of the line'],
  ['Ctrl+Y / Ctrl+_', 'put back what was deleted / undo'],
  ['Ctrl+X', 'expand a pasted chip into its lines'],
  ['Ctrl+G', 'edit the prompt in $VISUAL / $EDITOR'],
  ['@path / !command', 'attach a file for the model / run a shell command yourself'],
  ['PgUp / PgDn, Shift+↑ / Shift+↓', 'scroll the transcript'],
  ['Ctrl+Home / Ctrl+End', 'top of the transcript / follow the live output again'],
  ['Ctrl+O', 'show or hide the model’s reasoning'],
  ['Ctrl+L / Ctrl+Z', 'redraw / suspend (fg to come back)'],
  ['Ctrl+C', 'stop what is running and clear the input (a queued message comes back); twice to leave'],
  ['Ctrl+D', 'leave, on an empty input'],
  ['Esc Esc', 'on an empty input: the rewind picker (go back to before a prompt)'],
  ['y / n / a / q', 'in an approval: yes, no, always (this kind, inside the project), quit the turn'],
];

/** The help panel: the engine's command list (already formatted, see src/slash/help.ts) and the keys. */
export function helpText(commandList: string): string {
  const keyWidth = Math.max(...KEY_HELP.map(([k]) => k.length));
  const keys = KEY_HELP.map(([k, v]) => `  ${k.padEnd(keyWidth)}  ${v}`);
  return ['Commands', commandList, '', 'Keys', ...keys].join('\n');
}

/** Commands matching what is typed so far ('/th' → /thinking, /think). Empty once a space is typed. */
export function matchingCommands(text: string, commands: readonly SlashCommandInfo[]): readonly SlashCommandInfo[] {
  if (!text.startsWith('/') || /\s/.test(text)) return [];
  return commands.filter((c) => c.name.startsWith(text));
}

/** The command being given arguments ('/thinking o' → /thinking), by its name or an alias. */
export function commandBeingTyped(text: string, commands: readonly SlashCommandInfo[]): SlashCommandInfo | undefined {
  const m = /^(\/\S+)\s/.exec(text);
  if (!m || text.includes('\n')) return undefined;
  return commands.find((c) => c.name === m[1] || c.aliases?.includes(m[1]!));
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? '';
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * Tab: the single match plus a space, else the longest common prefix; undefined if no progress.
 * After a command and a space, the same for its first argument's choices ('/thinking o' → 'on'/'off').
 */
export function completeSlash(text: string, commands: readonly SlashCommandInfo[]): string | undefined {
  const typing = commandBeingTyped(text, commands);
  if (typing) {
    const m = /^(\/\S+\s+)(\S*)$/.exec(text);
    if (!m || !typing.choices?.length) return undefined;
    const [, head, partial] = m as unknown as [string, string, string];
    const fits = typing.choices.filter((c) => c.startsWith(partial));
    if (fits.length === 1) return `${head}${fits[0]} `;
    const prefix = commonPrefix(fits);
    return fits.length > 1 && prefix.length > partial.length ? `${head}${prefix}` : undefined;
  }
  const matches = matchingCommands(text, commands);
  if (matches.length === 0) return undefined;
  if (matches.length === 1) return `${matches[0]!.name} `;
  const prefix = commonPrefix(matches.map((m) => m.name));
  return prefix.length > text.length ? prefix : undefined;
}

/** The dim line under the input: matching commands, or the usage of the one being given arguments. */
export function slashHint(text: string, commands: readonly SlashCommandInfo[]): string | undefined {
  const typing = commandBeingTyped(text, commands);
  if (typing) return typing.args ? `${typing.name} ${typing.args} — ${typing.help}` : undefined;
  const matches = matchingCommands(text, commands);
  if (matches.length === 0) return undefined;
  const only = matches[0]!;
  return matches.length === 1 ? `${only.name}${only.args ? ` ${only.args}` : ''} — ${only.help}` : `Tab: ${matches.map((m) => m.name).join('  ')}`;
}
