/**
 * Skills: folders holding a `SKILL.md` (front matter `name` and `description`, then instructions).
 * Only the names and descriptions are in the system prompt, read once when the session starts so
 * the prefix stays byte-identical; the `skill` tool reads one's instructions when the model asks.
 */
import { readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { estimateText } from '../context/estimate-tokens.js';
import { noEntries } from '../diagnostics/ignore-error.js';
import { escapeForDisplay } from '../policy/escape.js';
import { arg } from '../tools/args.js';
import { defineTool } from '../tools/define-tool.js';
import { failure } from '../tools/results.js';
import type { ToolDefinition } from '../tools/types.js';
import { parseFrontMatter } from './front-matter.js';

export interface Skill {
  readonly name: string;
  readonly description: string;
  /** The skill's folder (real path): its scripts and references are relative to it. */
  readonly dir: string;
  readonly file: string;
  readonly source: 'user' | 'project';
}

/** The Agent Skills rule for names: lower case, digits and hyphens. */
const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_DESCRIPTION = 1024;
const MAX_SKILL_BYTES = 512 * 1024;

/** The skill folders a directory holds, by folder name, without reading them (an untrusted project's). */
export async function listSkillFolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(noEntries);
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
}

/** Reads the front matter of each `NAME/SKILL.md`; skills that cannot be used are named in `problems`. */
export async function loadSkills(dir: string, source: Skill['source'], problems: string[]): Promise<Skill[]> {
  const skills: Skill[] = [];
  for (const folder of await listSkillFolders(dir)) {
    const path = join(dir, folder, 'SKILL.md');
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${path}: could not be read (${(error as Error).message})`);
      continue;
    }
    const { fields } = parseFrontMatter(text);
    const name = fields['name'] ?? '';
    const description = (fields['description'] ?? '').replace(/\s+/g, ' ').trim();
    if (!SKILL_NAME.test(name)) {
      problems.push(`${path}: front matter "name" must be lower-case letters, digits and hyphens (got ${JSON.stringify(escapeForDisplay(name))}); skill not loaded`);
      continue;
    }
    if (!description) {
      problems.push(`${path}: front matter "description" is missing (it is what tells the model when to load the skill); skill not loaded`);
      continue;
    }
    const real = await realpath(join(dir, folder));
    skills.push({ name, description: escapeForDisplay(description.slice(0, MAX_DESCRIPTION)), dir: real, file: join(real, 'SKILL.md'), source });
  }
  return skills;
}

/**
 * The user's skills and a trusted project's, one per name: the project's wins over the user's of
 * the same name (it is the more specific), and the choice is said.
 */
export function mergeSkills(user: readonly Skill[], project: readonly Skill[], problems: string[]): Skill[] {
  const byName = new Map<string, Skill>();
  for (const skill of user) byName.set(skill.name, skill);
  for (const skill of project) {
    const mine = byName.get(skill.name);
    if (mine && mine.source === 'user') problems.push(`skill "${skill.name}": the project's (${skill.file}) is used instead of yours (${mine.file})`);
    else if (mine) problems.push(`skill "${skill.name}" is defined twice in the project; ${skill.file} is used`);
    byName.set(skill.name, skill);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The system prompt's part: each skill's name and description, nothing else. */
export function skillsPromptSection(skills: readonly Skill[]): string | undefined {
  if (!skills.length) return undefined;
  const lines = skills.map((s) => `- ${s.name}: ${s.description}`);
  return `Skills: instructions for particular tasks, loaded on demand. When a task matches a skill's description, call the skill tool with its name before starting, and follow what it says.\n${lines.join('\n')}`;
}

/** What each skill costs: its line in the prompt, and its instructions once loaded. */
export async function skillCosts(skills: readonly Skill[]): Promise<{ name: string; listed: number; body?: number }[]> {
  return Promise.all(
    skills.map(async (s) => {
      const listed = estimateText(`- ${s.name}: ${s.description}\n`);
      const text = await readFile(s.file, 'utf8').catch(noText);
      return text === undefined ? { name: s.name, listed } : { name: s.name, listed, body: estimateText(parseFrontMatter(text).body) };
    }),
  );
}

/** A skill file gone since the start: its instructions' cost is unknown, and shown as such. */
function noText(): undefined {
  return undefined;
}

export function skillTool(skills: readonly Skill[]): ToolDefinition {
  const byName = new Map(skills.map((s) => [s.name, s]));
  return defineTool({
    name: 'skill',
    description: 'Load the instructions of one of the skills listed in the system prompt, by name.',
    args: { name: arg.string('The skill\'s name, as listed.', { nonEmpty: true }) },
    // Reading a file the session chose at its start, not one the model names: no path to gate.
    kind: 'other',
    changes: false,
    title: (input) => (typeof input['name'] === 'string' ? input['name'] : undefined),
    async run({ name }) {
      const skill = byName.get(name);
      if (!skill) return failure(`skill: no skill named "${name}". The skills are: ${[...byName.keys()].join(', ') || 'none'}.`, 'no such skill', 'not_found');
      const text = await readFile(skill.file, 'utf8');
      if (Buffer.byteLength(text) > MAX_SKILL_BYTES) return failure(`skill: ${skill.file} is larger than ${MAX_SKILL_BYTES / 1024} KB; not loaded.`, 'too large');
      const body = parseFrontMatter(text).body.trim();
      const content = `Skill "${skill.name}" (its folder: ${skill.dir}; paths in it are relative to that folder)\n\n${body}`;
      return { ok: true, content, summary: `loaded ${skill.name}` };
    },
  });
}
