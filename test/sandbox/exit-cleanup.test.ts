/** What a run killed with SIGKILL leaves is swept by the next: by the owner's PID in the name. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepDeadOwners } from '../../src/sandbox/exit-cleanup.js';

describe('sweepDeadOwners', () => {
  it('removes the folders of processes that are gone, and nothing else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lwyrm-sweep-'));
    try {
      const dead = spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim();
      for (const name of [`lindwyrm-sandbox-${dead}-abc`, `lindwyrm-sandbox-${process.pid}-def`, 'lindwyrm-sandbox-cmd-1', `other-${dead}-x`]) {
        await mkdir(join(dir, name, 'inner'), { recursive: true });
      }
      await sweepDeadOwners(dir, 'lindwyrm-sandbox-', 'tree');
      expect(existsSync(join(dir, `lindwyrm-sandbox-${dead}-abc`))).toBe(false);
      expect(existsSync(join(dir, `lindwyrm-sandbox-${process.pid}-def`))).toBe(true);
      expect(existsSync(join(dir, 'lindwyrm-sandbox-cmd-1'))).toBe(true);
      expect(existsSync(join(dir, `other-${dead}-x`))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
