/** The project's prompt history on disk: private, capped, redacted, shared by every run in the project. */
import { mkdtemp, readFile, rm, stat, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPromptHistory, redactPrompt } from '../../src/sessions/prompt-history.js';

const dirs: string[] = [];
async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lw-hist-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('the prompt history', () => {
  it('is read back by the next run of the same project (through a symlink too), 0600 in a 0700 folder', async () => {
    const root = await temp();
    const project = join(root, 'project');
    await mkdir(project);
    await symlink(project, join(root, 'link'));
    const data = join(root, 'data');
    const first = await openPromptHistory({ dataDir: data, projectRoot: project, secrets: () => [] });
    await first.add('fix the parser');
    await first.add('now the tests');
    const again = await openPromptHistory({ dataDir: data, projectRoot: join(root, 'link'), secrets: () => [] });
    expect(again.entries).toEqual(['fix the parser', 'now the tests']);
    expect((await stat(again.file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(again.file, '..'))).mode & 0o777).toBe(0o700);
    const other = await openPromptHistory({ dataDir: data, projectRoot: root, secrets: () => [] });
    expect(other.entries).toEqual([]);
  });

  it('redacts the run’s secrets and well-known token shapes before writing', async () => {
    const root = await temp();
    const h = await openPromptHistory({ dataDir: root, projectRoot: root, secrets: () => ['hunter2-secret'] });
    await h.add('use hunter2-secret and ghp_abcdefghijklmnopqrstuvwxyz0123456789 and sk-ant-abcdefghijklmnopqrstuvwx');
    const text = await readFile(h.file, 'utf8');
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain('ghp_');
    expect(text).not.toContain('sk-ant-');
    expect(h.entries[0]).toBe('use [REDACTED] and [REDACTED] and [REDACTED]');
    expect(redactPrompt('nothing secret here', ['hunter2-secret'])).toBe('nothing secret here');
  });

  it('keeps the newest entries up to the cap and survives a torn last line', async () => {
    const root = await temp();
    const h = await openPromptHistory({ dataDir: root, projectRoot: root, secrets: () => [], maxEntries: 5 });
    for (let i = 0; i < 23; i++) await h.add(`prompt ${i}`);
    expect(h.entries).toEqual(['prompt 18', 'prompt 19', 'prompt 20', 'prompt 21', 'prompt 22']);
    const { appendFile } = await import('node:fs/promises');
    await appendFile(h.file, '"half a li');
    const again = await openPromptHistory({ dataDir: root, projectRoot: root, secrets: () => [], maxEntries: 5 });
    expect(again.entries).toEqual(['prompt 18', 'prompt 19', 'prompt 20', 'prompt 21', 'prompt 22']);
    expect((await readFile(h.file, 'utf8')).split('\n').length).toBeLessThan(12);
  });
});
