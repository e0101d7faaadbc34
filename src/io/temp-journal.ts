/**
 * Where this process's atomic writes put their temp files, so a later lindwyrm can remove the ones
 * a kill left behind. A SIGKILL between creating a temp file and renaming it runs no cleanup, and
 * the temp sits beside the user's file where nothing else would find it: a walk of every project
 * folder at start-up would cost more than the start itself.
 *
 * Each process appends the path of a temp file to its own list (`<pid>.list`, one JSON string a
 * line) before it creates the file, so a kill at any instant leaves either no temp or a listed
 * one. At start-up and after each tool call the lists of processes that are gone are read, their
 * temp files removed (only names the atomic-write module makes, with that pid, never through a
 * link), and the lists deleted. The list is not synced: it only has to survive a kill, and after
 * a power cut the page cache that held it held the temp file's name too.
 */
import { closeSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { lstat, readFile, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { absent, ignoreError } from '../diagnostics/ignore-error.js';
import { fsPath } from './byte-names.js';

const LIST_PATTERN = /^(\d+)\.list$/;

let journalDir: string | undefined;
let fd: number | undefined;
let exitHook = false;

/** Lists temp files under `dir` from now on (the engine calls it at start; tests may too). */
export function useTempJournal(dir: string): void {
  if (journalDir === dir) return;
  closeOwnList();
  journalDir = dir;
}

function closeOwnList(): void {
  if (fd !== undefined) closeSync(fd);
  fd = undefined;
}

function ownList(dir: string): string {
  return join(dir, `${process.pid}.list`);
}

/**
 * Records that `path` is about to be created as a temp file. Synchronous on purpose: nothing may
 * run between the note and the creation that a kill could fall into with the note unwritten.
 */
export function noteTempFile(path: string): void {
  if (journalDir === undefined) return;
  if (fd === undefined) {
    mkdirSync(journalDir, { recursive: true, mode: 0o700 });
    fd = openSync(ownList(journalDir), 'a', 0o600);
    if (!exitHook) {
      exitHook = true;
      // A clean exit leaves nothing to sweep: its temp files were renamed or removed.
      process.once('exit', forgetOwnList);
    }
  }
  writeSync(fd, `${JSON.stringify(path)}\n`);
}

function forgetOwnList(): void {
  const dir = journalDir;
  closeOwnList();
  if (dir === undefined) return;
  // The sync form: no promise runs after 'exit'.
  try {
    unlinkSync(ownList(dir));
  } catch {
    // Never made, or already gone.
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The temp name the atomic-write module gives a file of `pid`: `.<name>.lwyrm-<pid>-<ms>-<hex>.tmp`. */
function isTempOf(path: string, pid: number): boolean {
  const m = /^\..+\.lwyrm-(\d+)-\d+-[0-9a-f]+\.tmp$/.exec(basename(path));
  return m !== null && Number(m[1]) === pid;
}

/**
 * Removes the temp files of lindwyrm processes that are gone, wherever they wrote them, and their
 * lists. Returns the paths removed. A list whose process still runs is left alone.
 */
export async function sweepAbandonedTemps(): Promise<readonly string[]> {
  const dir = journalDir;
  if (dir === undefined) return [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return []; // no folder: no process ever listed anything
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = LIST_PATTERN.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (isAlive(pid)) continue;
    const list = join(dir, name);
    const text = (await readFile(list, 'utf8').catch(ignoreError(`read ${list}`))) ?? '';
    for (const line of new Set(text.split('\n'))) {
      const path = parseLine(line);
      if (path === undefined || !isTempOf(path, pid)) continue;
      const info = await lstat(fsPath(path)).catch(absent);
      if (!info?.isFile()) continue;
      await rm(fsPath(path), { force: true }).catch(ignoreError(`remove ${path}`));
      removed.push(path);
    }
    await rm(list, { force: true }).catch(ignoreError(`remove ${list}`));
  }
  return removed;
}

function parseLine(line: string): string | undefined {
  if (line === '') return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'string' && value.startsWith('/') ? value : undefined;
  } catch {
    return undefined; // the last line of a list cut by a kill
  }
}
