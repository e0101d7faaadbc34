/** lwyrm --init: a starter AGENTS.md, written only where none exists. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const AGENTS_TEMPLATE = `# Notes for the coding agent

<!--
lindwyrm reads this file at the start of every session and puts it in front of the model, so
every line costs tokens on every turn. Keep it short and factual. Write down what you find
yourself repeating in chat; leave out what the agent can learn in a moment by looking around.
It is reference material for the agent, not orders: a file cloned from someone else's repository
cannot command it. Delete these comments and the placeholder lines you do not need.
-->

## Commands

<!-- The exact commands, so they are run and not guessed. -->
\`\`\`bash
npm test          # run the tests
npm run lint      # lint
npm run build     # build
\`\`\`

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

export type InitResult = { readonly written: true; readonly path: string } | { readonly written: false; readonly path: string; readonly reason: string };

export async function writeStarterAgentsFile(projectRoot: string): Promise<InitResult> {
  const path = join(projectRoot, 'AGENTS.md');
  try {
    // 'wx' fails when the file exists, so a race cannot clobber one written meanwhile.
    await writeFile(path, AGENTS_TEMPLATE, { flag: 'wx', mode: 0o644 });
    return { written: true, path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EEXIST' ? 'it already exists; not overwriting it' : `cannot write it (${code ?? String(error)})`;
    return { written: false, path, reason };
  }
}
