/** The command list as help shows it, in the engine's /help and in the full screen's help panel. */
import type { SlashCommandInfo } from './types.js';

/** '/thinking [on|off]' */
export function commandUsage(command: SlashCommandInfo): string {
  return command.args ? `${command.name} ${command.args}` : command.name;
}

/** One indented line per command, the descriptions in one column. */
export function formatCommandList(commands: readonly SlashCommandInfo[]): string {
  const width = Math.max(0, ...commands.map((c) => commandUsage(c).length));
  return commands.map((c) => `  ${commandUsage(c).padEnd(width)}  ${c.help}${c.source ? ` (${c.source})` : ''}`).join('\n');
}
