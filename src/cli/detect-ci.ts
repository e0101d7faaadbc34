/**
 * The commands a project's CI runs (GitHub Actions `run:` steps, GitLab `script:` lists): what
 * "the tests pass" means there. Read as text, not as YAML: only the commands are wanted, and a
 * file from an untrusted checkout is never evaluated.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { absent, noEntries } from '../diagnostics/ignore-error.js';
import { oneLineCommand } from './detect-commands.js';

export interface CiCommands {
  /** Project-relative file names the commands came from. */
  readonly files: readonly string[];
  readonly commands: readonly string[];
}

const MAX_COMMANDS = 12;
/** Steps that only prepare the machine tell the reader nothing about the project. */
const SETUP = /^(echo|cd|export|sudo |apt(-get)? |brew |choco |curl |wget |mkdir |git (config|fetch|checkout)|pip install --upgrade pip)/;
/** A block's shell plumbing (conditionals, loops, assignments) is not a command to copy. */
const PLUMBING = /^(if|then|else|elif|fi|for|while|until|do|done|case|esac|exit|set|return|[{}()]|[A-Za-z_]\w*=)(\s|;|$|\b)/;
/** Workflows that ship rather than check: their steps are not what a change must pass. */
const SHIPPING = /release|publish|deploy|pages|docs|stale|label/i;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** `run: cmd` and `run: |` blocks of a GitHub workflow. */
export function workflowRuns(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:-\s+)?run:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    const value = m[2]!.trim();
    if (/^[|>][-+]?$/.test(value)) {
      const base = indentOf(lines[i]!);
      for (let j = i + 1; j < lines.length && (lines[j]!.trim() === '' || indentOf(lines[j]!) > base); j++) {
        const cmd = lines[j]!.trim();
        if (cmd !== '' && !cmd.startsWith('#') && !PLUMBING.test(cmd)) out.push(cmd);
      }
    } else if (value !== '') {
      out.push(value.replace(/^(['"])(.*)\1$/, '$2'));
    }
  }
  return out;
}

/** `script:` lists of a GitLab CI file. */
export function gitlabScripts(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)script:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    if (m[2]!.trim() !== '') {
      out.push(m[2]!.trim().replace(/^\[|\]$/g, ''));
      continue;
    }
    const base = indentOf(lines[i]!);
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === '') continue;
      const item = /^(\s*)-\s+(.*)$/.exec(line);
      if (item && item[1]!.length >= base) out.push(item[2]!.trim().replace(/^(['"])(.*)\1$/, '$2'));
      else if (indentOf(line) <= base) break;
    }
  }
  return out;
}

async function readSmall(path: string): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch(absent);
  return text !== undefined && text.length <= 500_000 ? text : undefined;
}

export async function detectCiCommands(root: string): Promise<CiCommands> {
  const files: string[] = [];
  const raw: string[] = [];
  const all = (await readdir(join(root, '.github', 'workflows')).catch(noEntries)).filter((n) => /\.ya?ml$/.test(n)).sort();
  const checking = all.filter((n) => !SHIPPING.test(n));
  const workflows = checking.length > 0 ? checking : all;
  for (const name of workflows.slice(0, 10)) {
    const text = await readSmall(join(root, '.github', 'workflows', name));
    if (text === undefined) continue;
    const runs = workflowRuns(text);
    if (runs.length) files.push(`.github/workflows/${name}`);
    raw.push(...runs);
  }
  const gitlab = await readSmall(join(root, '.gitlab-ci.yml'));
  if (gitlab !== undefined) {
    const scripts = gitlabScripts(gitlab);
    if (scripts.length) files.push('.gitlab-ci.yml');
    raw.push(...scripts);
  }
  const commands: string[] = [];
  for (const cmd of raw) {
    const line = oneLineCommand(cmd);
    // ${{ matrix.x }} and friends only mean something inside the workflow.
    if (line === undefined || SETUP.test(line) || line.includes('${{') || commands.includes(line)) continue;
    commands.push(line);
    if (commands.length === MAX_COMMANDS) break;
  }
  return { files, commands };
}
