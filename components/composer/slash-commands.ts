/** The slash commands, their one-line help, and Tab completion. Pure. */

export interface SlashCommandInfo {
  readonly name: string;
  readonly args?: string;
  readonly help: string;
}

export const SLASH_COMMANDS: readonly SlashCommandInfo[] = [
  { name: '/model', args: '[preset]', help: 'switch to another preset (format, endpoint, model) for the next turns' },
  { name: '/presets', help: 'list the presets you can switch to' },
  { name: '/thinking', args: '[on|off]', help: 'turn streamed reasoning on or off' },
  { name: '/think', args: '<effort>', help: 'reasoning effort: minimal, low, medium, high, xhigh or max' },
  { name: '/markdown', args: '[on|off]', help: 'render answers as markdown, or show them as plain text' },
  { name: '/perm', args: '<path> kind=level…', help: 'set a permission rule, e.g. /perm src write=allow delete=confirm' },
  { name: '/policy', help: 'show the permission policy in force and where each rule came from' },
  { name: '/context', help: 'show how full the context is, what is cached and what was offloaded' },
  { name: '/compact', args: '[instructions]', help: 'summarize older history now; instructions say what to keep' },
  { name: '/sessions', help: 'browse saved sessions of this project: Enter resumes, d deletes' },
  { name: '/rewind', args: '[N]', help: 'go back to before a prompt: its file changes, the conversation, or both (a preview first)' },
  { name: '/init', help: 'write a starter AGENTS.md with your build commands and conventions' },
  { name: '/proxy', args: '[url|off]', help: 'show or set the proxy used for model requests' },
  { name: '/clear', help: 'start a new session; what was saved stays saved' },
  { name: '/export', args: '[file]', help: 'write this transcript as Markdown (default: lindwyrm-<session>.md)' },
  { name: '/help', help: 'show this list and the keys' },
  { name: '/exit', help: 'leave (also Ctrl+D on an empty line, or Ctrl+C twice)' },
];

export const KEY_HELP: readonly (readonly [string, string])[] = [
  ['Enter', 'send (while a turn runs, the text waits and is sent when it ends)'],
  ['Ctrl+J / Alt+Enter', 'new line in the input'],
  ['↑ / ↓', 'earlier prompts (history); move between lines of a multi-line input'],
  ['Tab', 'complete a slash command'],
  ['PgUp / PgDn, Shift+↑ / Shift+↓', 'scroll the transcript'],
  ['Home / End', 'top of the transcript / follow the live output again'],
  ['Ctrl+O', 'show or hide the model’s reasoning'],
  ['Ctrl+A / Ctrl+E', 'start / end of the line'],
  ['Ctrl+U / Ctrl+K / Ctrl+W', 'delete to the start / to the end of the line / the word before'],
  ['Ctrl+C', 'stop what is running and clear the input; twice to leave'],
  ['Ctrl+D', 'leave, on an empty input'],
  ['Esc Esc', 'on an empty input: the rewind picker (go back to before a prompt)'],
  ['y / n / a / q', 'in an approval: yes, no, always (this kind, inside the project), quit the turn'],
];

export function helpText(): string {
  const width = Math.max(...SLASH_COMMANDS.map((c) => `${c.name}${c.args ? ` ${c.args}` : ''}`.length));
  const cmds = SLASH_COMMANDS.map((c) => `  ${`${c.name}${c.args ? ` ${c.args}` : ''}`.padEnd(width)}  ${c.help}`);
  const keyWidth = Math.max(...KEY_HELP.map(([k]) => k.length));
  const keys = KEY_HELP.map(([k, v]) => `  ${k.padEnd(keyWidth)}  ${v}`);
  return ['Commands', ...cmds, '', 'Keys', ...keys].join('\n');
}

/** Commands matching what is typed so far ('/th' → /thinking, /think). Empty once a space is typed. */
export function matchingCommands(text: string): readonly SlashCommandInfo[] {
  if (!text.startsWith('/') || /\s/.test(text)) return [];
  return SLASH_COMMANDS.filter((c) => c.name.startsWith(text));
}

/** Tab: the single match plus a space, else the longest common prefix; undefined if no progress. */
export function completeSlash(text: string): string | undefined {
  const matches = matchingCommands(text);
  if (matches.length === 0) return undefined;
  if (matches.length === 1) return `${matches[0]!.name} `;
  let prefix = matches[0]!.name;
  for (const m of matches) {
    while (!m.name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix.length > text.length ? prefix : undefined;
}
