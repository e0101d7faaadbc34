/**
 * The custom commands and skills of a session, read after the config's trust decision: the
 * user's own always (`commands/` and `skills/` in lindwyrm's config folder), the project's
 * (`.lindwyrm/commands/`, `.agents/skills/`) only when the project is trusted. An untrusted
 * project's are not read at all — only their names are listed, so the startup warning can say
 * what was left out and how to trust the project.
 */
import { join } from 'node:path';
import type { Config } from '../config/types.js';
import { escapeForDisplay } from '../policy/escape.js';
import type { SlashCommand } from '../slash/types.js';
import { customSlashCommand, listCommandNames, loadCommandFiles } from './custom-commands.js';
import { listSkillFolders, loadSkills, mergeSkills, type Skill } from './skills.js';

export const PROJECT_COMMANDS_DIR = join('.lindwyrm', 'commands');
export const PROJECT_SKILLS_DIR = join('.agents', 'skills');

export interface Extensions {
  readonly commands: readonly SlashCommand[];
  readonly skills: readonly Skill[];
  /** For the startup notices: what was left out and why. */
  readonly warnings: readonly string[];
}

export async function loadExtensions(opts: { config: Config; configDir: string; userConfigFile: string }): Promise<Extensions> {
  const { config } = opts;
  const warnings: string[] = [];
  const projectCommands = join(config.projectRoot, PROJECT_COMMANDS_DIR);
  const projectSkills = join(config.projectRoot, PROJECT_SKILLS_DIR);
  const userCommands = await loadCommandFiles(join(opts.configDir, 'commands'), warnings);
  const userSkills = await loadSkills(join(opts.configDir, 'skills'), 'user', warnings);
  if (!config.trusted) {
    const names = await listCommandNames(projectCommands);
    const folders = await listSkillFolders(projectSkills);
    const left = [
      names.length ? `commands ${names.join(', ')} (${PROJECT_COMMANDS_DIR})` : '',
      folders.length ? `skills ${folders.join(', ')} (${PROJECT_SKILLS_DIR})` : '',
    ].filter(Boolean);
    if (left.length) {
      warnings.push(
        escapeForDisplay(`The project's ${left.join(' and ')} were not loaded: the project is not in trusted_projects of ${opts.userConfigFile}.`),
      );
    }
    return { commands: userCommands.map((c) => customSlashCommand(c, 'user')), skills: mergeSkills(userSkills, [], warnings), warnings };
  }
  const projectFiles = await loadCommandFiles(projectCommands, warnings);
  const skills = mergeSkills(userSkills, await loadSkills(projectSkills, 'project', warnings), warnings);
  // A project command of the same name as one of the user's is the more specific one.
  const projectNames = new Set(projectFiles.map((c) => c.name));
  for (const c of userCommands) if (projectNames.has(c.name)) warnings.push(`${c.name}: the project's command is used instead of yours (${c.file})`);
  const commands = [
    ...userCommands.filter((c) => !projectNames.has(c.name)).map((c) => customSlashCommand(c, 'user')),
    ...projectFiles.map((c) => customSlashCommand(c, 'project')),
  ];
  return { commands, skills, warnings };
}
