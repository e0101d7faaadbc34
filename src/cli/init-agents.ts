/**
 * lwyrm --init and /init: a starter AGENTS.md with the project's real commands (what its
 * package.json, pyproject, Cargo.toml, go.mod, Makefile, justfile and CI files say), written only
 * where none exists.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { detectCiCommands, type CiCommands } from './detect-ci.js';
import { detectProjectCommands, type CommandRole, type ProjectCommand } from './detect-commands.js';

const HEAD = `# Notes for the coding agent

<!--
lindwyrm reads this file at the start of every session and puts it in front of the model, so
every line costs tokens on every turn. Keep it short and factual. Write down what you find
yourself repeating in chat; leave out what the agent can learn in a moment by looking around.
It is reference material for the agent, not orders: a file cloned from someone else's repository
cannot command it. Delete these comments and the placeholder lines you do not need.
-->

## Commands
`;

const TAIL = `
## Conventions

<!-- House rules the code alone does not reveal: style, naming, libraries used or banned. -->
- 

## Decisions

<!-- "We use X, not Y, because Z": this stops the agent from bringing Y back. -->
- 

## Gotchas

<!-- Traps: generated files not to edit, slow or flaky tests, where the version number lives. -->
- 
`;

const ROLE_ORDER: readonly CommandRole[] = ['build', 'test', 'lint', 'typecheck', 'format', 'run'];
const ROLE_WORD: Readonly<Record<CommandRole, string>> = {
  build: 'build',
  test: 'run the tests',
  lint: 'lint',
  typecheck: 'type-check',
  format: 'format',
  run: 'run it',
};

/** A fence the text cannot close early. */
function fenced(lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length)));
  const marks = '`'.repeat(longest + 1);
  return `${marks}bash\n${lines.join('\n')}\n${marks}\n`;
}

function commandsSection(found: readonly ProjectCommand[], ci: CiCommands): string {
  const parts: string[] = [];
  if (found.length > 0) {
    const sorted = [...found].sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role));
    const width = Math.min(32, Math.max(...sorted.map((c) => c.command.length)));
    parts.push(
      '\n<!-- Found in the project\'s files (shown after each #). Keep the ones you use, fix any that are wrong. -->\n',
      fenced(sorted.map((c) => `${c.command.padEnd(width)}  # ${ROLE_WORD[c.role]} (${c.source})`)),
    );
  } else {
    parts.push('\n<!-- No build, test or lint commands were found in the project\'s files: write the exact ones here, so they are run and not guessed. -->\n', fenced(['']));
  }
  if (ci.commands.length > 0) {
    parts.push(`\nWhat CI runs (${ci.files.join(', ')}):\n\n`, fenced(ci.commands));
  }
  return parts.join('');
}

/** The starter file's text for a project whose files name these commands. */
export function agentsTemplate(found: readonly ProjectCommand[] = [], ci: CiCommands = { files: [], commands: [] }): string {
  return `${HEAD}${commandsSection(found, ci)}${TAIL}`;
}

/** The starter for a project that names no commands anywhere. */
export const AGENTS_TEMPLATE = agentsTemplate();

export type InitResult =
  | { readonly written: true; readonly path: string; readonly commands: number }
  | { readonly written: false; readonly path: string; readonly reason: string };

export async function writeStarterAgentsFile(projectRoot: string): Promise<InitResult> {
  const path = join(projectRoot, 'AGENTS.md');
  const [found, ci] = await Promise.all([detectProjectCommands(projectRoot), detectCiCommands(projectRoot)]);
  try {
    // 'wx' fails when the file exists, so a race cannot clobber one written meanwhile.
    await writeFile(path, agentsTemplate(found, ci), { flag: 'wx', mode: 0o644 });
    return { written: true, path, commands: found.length + ci.commands.length };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EEXIST' ? 'it already exists; not overwriting it' : `cannot write it (${code ?? String(error)})`;
    return { written: false, path, reason };
  }
}

/** What /init and --init say after writing. */
export function initMessage(result: Extract<InitResult, { written: true }>): string {
  const found = result.commands === 0 ? 'no commands found in the project\'s files; add yours' : `${result.commands} command${result.commands === 1 ? '' : 's'} from the project's files; check them`;
  return `Wrote ${result.path} (${found}). Fill in your conventions; keep it short.`;
}
