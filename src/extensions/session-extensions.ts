/** How a session takes up its extensions: commands into the one slash registry, skills' cost into /context. */
import { formatCount } from '../context/format-count.js';
import type { SlashRegistry } from '../slash/registry.js';
import type { SlashCommand } from '../slash/types.js';
import { skillCosts, type Skill } from './skills.js';

/** Registers each custom command; one whose name is taken (a built-in's) is left out and said. */
export function registerCustomCommands(slash: SlashRegistry, commands: readonly SlashCommand[], notice: (line: string) => void): void {
  for (const command of commands) {
    if (slash.find(command.name)) {
      notice(`The custom command ${command.name} has the name of a built-in command and was not loaded; rename its file.`);
      continue;
    }
    try {
      slash.register(command);
    } catch (error) {
      notice(`The custom command ${command.name} was not loaded: ${(error as Error).message}`);
    }
  }
}

/** /context's lines: what the skills cost in every request, and what each costs once loaded, dearest first. */
export async function formatSkillCosts(skills: readonly Skill[]): Promise<string[]> {
  const costs = await skillCosts(skills);
  const listed = costs.reduce((sum, c) => sum + c.listed, 0);
  costs.sort((a, b) => (b.body ?? 0) + b.listed - ((a.body ?? 0) + a.listed));
  const width = Math.max(...costs.map((c) => c.name.length));
  return [
    `skills: ${skills.length} listed in the prompt, ~${formatCount(listed)} tokens (names and descriptions; instructions load on demand)`,
    ...costs.map((c) => `  ${c.name.padEnd(width)}  ~${formatCount(c.listed)} listed · ${c.body === undefined ? 'file gone' : `~${formatCount(c.body)} when loaded`}`),
  ];
}
