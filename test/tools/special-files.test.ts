/**
 * Pipes and devices: opening a FIFO blocks until a writer comes (and stalls Node's file threads
 * for every other tool), and /dev/zero never ends. Tools must refuse them without opening them.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../src/tools/registry.js';
import type { ToolResult } from '../../src/tools/types.js';
import { makeConfig, makePolicy } from './make-config.js';
import { makeContext, makeTempDir } from './make-context.js';

let root: string;

beforeAll(async () => {
  root = await makeTempDir();
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
});

/** Fails the test at once instead of hanging the worker when a tool blocks. */
function settleWithin(p: Promise<ToolResult>, ms = 5000): Promise<ToolResult | 'hung'> {
  return Promise.race([p, new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms).unref())]);
}

const cases: Array<[string, Record<string, unknown>]> = [
  ['read_file', { path: 'pipe' }],
  ['view_image', { path: 'pipe' }],
  ['grep', { pattern: 'x', path: 'pipe' }],
  ['write_file', { path: 'pipe', content: 'x' }],
  ['edit_file', { path: 'pipe', old_string: 'x', new_string: 'y' }],
  ['read_file', { path: '/dev/zero' }],
  ['view_image', { path: '/dev/zero' }],
  ['grep', { pattern: 'x', path: '/dev/zero' }],
];

describe('special files', () => {
  it.each(cases)('%s %j is refused without being opened', async (tool, args) => {
    const config = makeConfig(root, { policy: makePolicy({ readOutside: 'allow', write: 'allow' }) });
    const registry = createToolRegistry({ config, vision: true, readOnly: false });
    const ctx = makeContext(root, { config, vision: true });
    const r = await settleWithin(registry.run(tool, args, ctx));
    expect(r).not.toBe('hung');
    const result = r as ToolResult;
    expect(result.ok).toBe(false);
    expect(result.content).toMatch(/not a regular file/);
    expect(ctx.asked).toEqual([]);
  });
});
