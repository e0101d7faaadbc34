/**
 * Instruction files: what lindwyrm and the other coding agents read at the start of every session
 * and follow. A write there outlives the session that made it — the next session (ours or another
 * agent's) obeys it — so writing or deleting one is always asked about, like `.git/` or a CI
 * workflow, even under `write = "allow"`, --allow write or an [a]lways grant.
 */
import path from 'node:path';
import { foldCase } from './case-fold.js';

/** File names, in any folder (agents read nested ones too). Compared case-folded. */
const INSTRUCTION_NAMES = new Set([
  'agents.md',
  'agents.override.md', // codex
  'agent.md',
  'lindwyrm.md',
  'claude.md',
  'claude.local.md',
  'gemini.md',
  'qwen.md',
  'crush.md',
  'conventions.md', // aider
  'warp.md',
  '.cursorrules',
  '.windsurfrules',
  '.clinerules',
  '.roorules',
  '.goosehints',
  '.aider.conf.yml', // also names the commands aider runs (lint-cmd, test-cmd)
  '.rules', // Zed
]);

/** Folders whose every file is an instruction file (relative two-level names included). */
const INSTRUCTION_DIRS: readonly string[] = [
  '.clinerules',
  '.cursor/rules',
  '.windsurf/rules',
  '.kiro/steering',
  '.amazonq/rules',
  '.continue/rules',
  '.junie',
  '.github/instructions',
  '.github/prompts',
  '.github/chatmodes',
  '.augment/rules',
  '.trae/rules',
  '.agents', // skills and instructions shared between agents
];

/** Files at a fixed place below a folder. */
const INSTRUCTION_PATHS: readonly string[] = ['.github/copilot-instructions.md'];

/** The whole list as the README words it. */
export const INSTRUCTION_FILE_PATTERNS: readonly string[] = [...INSTRUCTION_NAMES, ...INSTRUCTION_DIRS.map((d) => `${d}/`), ...INSTRUCTION_PATHS];

/** `realPath` absolute and real. Judged on the part below the root when it is inside. */
export function isInstructionFile(realPath: string, projectRoot: string): boolean {
  const rel = realPath === projectRoot || realPath.startsWith(projectRoot + path.sep) ? path.relative(projectRoot, realPath) : realPath;
  const parts = foldCase(rel).split(path.sep).filter((p) => p !== '');
  const name = parts.at(-1);
  if (name === undefined) return false;
  if (INSTRUCTION_NAMES.has(name)) return true;
  const joined = `/${parts.join('/')}`;
  const under = (dir: string): boolean => joined.includes(`/${dir}/`) || joined.endsWith(`/${dir}`);
  return INSTRUCTION_DIRS.some(under) || INSTRUCTION_PATHS.some((p) => joined.endsWith(`/${p}`));
}
