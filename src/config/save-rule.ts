/**
 * Saving an approval as a rule in the user's own config file (never a project's). The file is not
 * re-serialised: the rule is appended as a TOML block (`[[policy.bash_rules]]` or
 * `[[policy.rules]]`, arrays of tables, which TOML allows after any other table), so the user's
 * comments, order and formatting stay exactly as they were. The result is parsed and read the way
 * loadConfig reads it before anything is written, and written atomically: a config that does not
 * load afterwards is never left behind.
 */
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'smol-toml';
import { writeFileAtomic } from '../io/atomic-write.js';
import { PROJECT_CONFIG_NAME } from './load-config.js';
import { readLayer } from './read-layer.js';
import type { Table } from './toml-reader.js';
import type { BashRule, PathKind } from './types.js';

/** A TOML basic string: JSON's escapes are TOML's, except that TOML also escapes DEL. */
function tomlString(text: string): string {
  return JSON.stringify(text).replace(/\u007f/g, '\\u007f');
}

function stamp(now: Date): string {
  return `# Saved by lindwyrm on ${now.toISOString().slice(0, 10)} from an approval.`;
}

/** The TOML block for saved bash grants, one entry each. */
export function bashRuleBlock(rules: readonly BashRule[], now: Date = new Date()): string {
  const entries = rules.map((rule) => `[[policy.bash_rules]]\n${rule.match} = [${rule.words.map(tomlString).join(', ')}]\n`);
  return `${stamp(now)}\n${entries.join('')}`;
}

/** The TOML block allowing one kind everywhere inside the project (what [a]lways grants for a path kind). */
export function pathRuleBlock(projectRoot: string, kind: PathKind, now: Date = new Date()): string {
  return `${stamp(now)}\n[[policy.rules]]\npath = ${tomlString(projectRoot)}\n${kind} = "allow"\n`;
}

/** Where appending goes: the file a link points to, so a config kept in a dotfiles repo stays a link. */
async function realTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return file; // not there yet: it is created
  }
}

async function currentText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function checkLoads(text: string, file: string, what: string): void {
  try {
    const table = parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as Table;
    const home = process.env['HOME'] || homedir();
    readLayer(table, { file, baseDir: home, home }, []);
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0] ?? String(error);
    throw new Error(`${what} (${reason}); nothing was written to ${file}`);
  }
}

/** Appends `block` to the user config `file`; refuses a project's config file. Returns the file written. */
export async function appendUserRule(file: string, block: string, projectRoot: string): Promise<string> {
  const target = await realTarget(file);
  const projectFile = await realTarget(join(projectRoot, PROJECT_CONFIG_NAME));
  if (target === projectFile) throw new Error(`${file} is the project's own ${PROJECT_CONFIG_NAME}; a rule is saved only in your user config`);
  const before = await currentText(target);
  checkLoads(before, file, `${file} does not load as it is; fix it first`);
  const separator = before === '' ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const after = `${before}${separator}${block}`;
  checkLoads(after, file, `the rule cannot be added to ${file} as a block (is [policy] an inline table there?)`);
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  await writeFileAtomic(target, after, { mode: 'keep' });
  return target;
}
