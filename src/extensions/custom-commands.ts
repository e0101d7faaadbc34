/**
 * Custom slash commands from markdown files: `NAME.md` in a commands folder becomes `/NAME`, and
 * `sub/NAME.md` becomes `/sub:NAME`. The front matter gives its help line (`description`) and
 * argument hint (`argument-hint`); the body is the prompt, with `$ARGUMENTS` replaced by the whole
 * argument text and `$1`…`$9` by the single arguments. Running one sends the prompt as the user's.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { noEntries } from '../diagnostics/ignore-error.js';
import { escapeForDisplay } from '../policy/escape.js';
import type { SlashCommand } from '../slash/types.js';
import { parseFrontMatter } from './front-matter.js';

export interface CommandFile {
  /** '/release', '/frontend:component'. */
  readonly name: string;
  readonly file: string;
  readonly description?: string;
  readonly argumentHint?: string;
  readonly body: string;
}

const FILE_NAME = /^[A-Za-z0-9][\w.-]*\.md$/;
const DIR_NAME = /^[A-Za-z0-9][\w.-]*$/;
/** A command file is a prompt, not a document: past this it is refused, not sent. */
const MAX_COMMAND_BYTES = 256 * 1024;

/** The command names a folder holds, without reading any file (an untrusted project's, for the warning). */
export async function listCommandNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(noEntries)) {
    if (entry.isFile() && FILE_NAME.test(entry.name)) names.push(`/${entry.name.slice(0, -3)}`);
    else if (entry.isDirectory() && DIR_NAME.test(entry.name)) {
      for (const inner of await readdir(join(dir, entry.name), { withFileTypes: true }).catch(noEntries)) {
        if (inner.isFile() && FILE_NAME.test(inner.name)) names.push(`/${entry.name}:${inner.name.slice(0, -3)}`);
      }
    }
  }
  return names.sort();
}

/** Reads every command file of a folder; a file that cannot be used is named in `problems`. */
export async function loadCommandFiles(dir: string, problems: string[]): Promise<CommandFile[]> {
  const commands: CommandFile[] = [];
  for (const name of await listCommandNames(dir)) {
    const file = join(dir, `${name.slice(1).replace(':', '/')}.md`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      problems.push(`${file}: could not be read (${(error as Error).message}); ${name} is not available`);
      continue;
    }
    if (Buffer.byteLength(text) > MAX_COMMAND_BYTES) {
      problems.push(`${file}: larger than ${MAX_COMMAND_BYTES / 1024} KB; ${name} is not available`);
      continue;
    }
    const { fields, body } = parseFrontMatter(text);
    const description = oneLine(fields['description']);
    const argumentHint = oneLine(fields['argument-hint']);
    commands.push({ name, file, body, ...(description ? { description } : {}), ...(argumentHint ? { argumentHint } : {}) });
  }
  return commands;
}

/** A line of file text fit for the help panel: control characters shown as escapes, on one line. */
function oneLine(value: string | undefined): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? escapeForDisplay(text) : undefined;
}

/**
 * Splits an argument text like a shell would for simple cases: whitespace separates, and "double"
 * or 'single' quotes keep spaces inside one argument.
 */
export function splitArguments(text: string): string[] {
  const args: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    args.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? match[3] ?? ''));
  }
  return args;
}

/**
 * The prompt a command sends: `$ARGUMENTS` is the whole text, `$1`…`$9` the single arguments (a
 * missing one is empty). A body that names no argument and got some has them appended, so what the
 * user typed is never dropped silently.
 */
export function expandCommand(body: string, rest: string): string {
  const args = splitArguments(rest);
  let used = false;
  const expanded = body.replace(/\$ARGUMENTS\b|\$([1-9])(?![0-9])/g, (whole, digit: string | undefined) => {
    used = true;
    if (digit === undefined) return rest;
    return args[Number(digit) - 1] ?? '';
  });
  const text = expanded.trim();
  if (!used && rest !== '') return `${text}\n\nARGUMENTS: ${rest}`;
  return text;
}

/** The help panel's label of a custom command, by where its file is. */
export const CUSTOM_COMMAND_SOURCES = ['your command', 'project command'] as const;

export function customSlashCommand(command: CommandFile, source: 'user' | 'project'): SlashCommand {
  return {
    name: command.name,
    help: command.description ?? `Runs the prompt in ${command.name.slice(1).replace(':', '/')}.md`,
    ...(command.argumentHint ? { args: command.argumentHint } : {}),
    source: source === 'user' ? CUSTOM_COMMAND_SOURCES[0] : CUSTOM_COMMAND_SOURCES[1],
    // It sends a prompt: like typing one, it waits for the running turn.
    idle: 'always',
    run: ({ rest }) => {
      const text = expandCommand(command.body, rest);
      if (!text) return { kind: 'error', text: `${command.file} has no prompt text after its front matter.` };
      return { kind: 'prompt', text };
    },
  };
}

/**
 * A one-shot prompt that is a custom command ("/release 2.1") becomes that command's prompt, as
 * typing it in the full screen would; any other text (another slash command included) is left as it is.
 */
export async function expandCustomCommand(
  text: string,
  slash: { find(name: string): { readonly source?: string } | undefined },
  run: (command: string) => Promise<{ readonly prompt?: string; readonly output?: string; readonly error?: boolean }>,
): Promise<{ prompt: string } | { error: string } | undefined> {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const command = slash.find(trimmed.split(/\s+/, 1)[0] ?? '');
  if (!command || !(CUSTOM_COMMAND_SOURCES as readonly (string | undefined)[]).includes(command.source)) return undefined;
  const result = await run(trimmed);
  return result.prompt !== undefined ? { prompt: result.prompt } : { error: result.output ?? `${trimmed} sent no prompt` };
}
