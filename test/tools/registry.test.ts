import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import type { ToolDefinition } from '../../src/tools/types.js';
import { sniffImage } from '../../src/tools/view-image.js';
import { makeConfig } from './make-config.js';
import { makeContext, makeTempDir } from './make-context.js';

let root: string;

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  root = await makeTempDir('lwyrm-registry-');
  await writeFile(path.join(root, 'a.txt'), 'hello\n');
  await writeFile(path.join(root, 'shot.dat'), PNG);
  await writeFile(path.join(root, 'fake.png'), 'not an image');
});

const extra: ToolDefinition = {
  name: 'read_symbol',
  description: 'x',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  kind: 'read',
  bulk: false,
  run: async () => {
    throw new Error('plugin exploded');
  },
};

describe('createToolRegistry', () => {
  it('offers the tools in a stable order, view_image only with vision, extra tools last', () => {
    const config = makeConfig(root);
    const names = createToolRegistry({ config, vision: false, readOnly: false, extraTools: [extra] }).schemas().map((s) => s.name);
    expect(names).toEqual(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'delete_file', 'bash', 'read_offloaded', 'recall', 'read_symbol']);
    const vision = createToolRegistry({ config, vision: true, readOnly: false }).schemas().map((s) => s.name);
    expect(vision.at(-1)).toBe('view_image');
    const again = createToolRegistry({ config, vision: true, readOnly: false }).schemas();
    expect(JSON.stringify(again)).toBe(JSON.stringify(createToolRegistry({ config, vision: true, readOnly: false }).schemas()));
  });

  it('read-only offers no write, delete or bash tools, and denies them if called anyway', async () => {
    const registry = createToolRegistry({ config: makeConfig(root), vision: false, readOnly: true });
    expect(registry.schemas().map((s) => s.name)).toEqual(['read_file', 'list_dir', 'glob', 'grep', 'read_offloaded', 'recall']);
    const ctx = makeContext(root);
    const r = await registry.run('write_file', { path: 'a.txt', content: 'x' }, ctx);
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/--read-only/);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('hello\n');
    expect(ctx.asked).toHaveLength(0);
  });

  it('never throws: unknown tools and throwing extra tools become error results', async () => {
    const registry = createToolRegistry({ config: makeConfig(root), vision: false, readOnly: false, extraTools: [extra] });
    const unknown = await registry.run('frobnicate', {}, makeContext(root));
    expect(unknown.ok).toBe(false);
    expect(unknown.content).toMatch(/Unknown tool "frobnicate"/);
    const boom = await registry.run('read_symbol', { name: 'x' }, makeContext(root));
    expect(boom).toMatchObject({ ok: false, content: 'read_symbol failed: plugin exploded' });
  });

  it('writes a decision line and an outcome line to the audit log, without contents', async () => {
    const log = path.join(await makeTempDir('lwyrm-audit-'), 'audit.jsonl');
    const registry = createToolRegistry({ config: makeConfig(root), vision: false, readOnly: false });
    const ctx = makeContext(root, { config: { auditLog: log } });
    await registry.run('write_file', { path: 'b.txt', content: 'TOP-SECRET-CONTENT' }, ctx);
    await registry.run('bash', { command: 'echo BASH-OUTPUT' }, ctx);
    const text = await readFile(log, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['tool'], l['event'], l['decision'] ?? l['status']])).toEqual([
      ['write_file', 'decision', 'confirm'],
      ['write_file', 'outcome', 'ok'],
      ['bash', 'decision', 'confirm'],
      ['bash', 'outcome', 'ok'],
    ]);
    expect(lines[1]?.['target']).toBe(path.join(root, 'b.txt'));
    expect(lines[3]?.['target']).toBe('echo BASH-OUTPUT');
    expect(text).not.toContain('TOP-SECRET-CONTENT');
    expect(text.match(/BASH-OUTPUT/g)).toHaveLength(2); // the command, never its output beyond that
  });

  it('redacts a provider key that appears in a logged command', async () => {
    const log = path.join(await makeTempDir('lwyrm-audit-'), 'audit.jsonl');
    process.env['LWYRM_AUDIT_TEST_KEY'] = 'sk-live-0123456789';
    try {
      const config = { auditLog: log, secretEnvNames: ['LWYRM_AUDIT_TEST_KEY'] };
      const registry = createToolRegistry({ config: makeConfig(root, config), vision: false, readOnly: false });
      await registry.run('bash', { command: 'echo sk-live-0123456789 > /dev/null' }, makeContext(root, { config, answer: 'no' }));
      const text = await readFile(log, 'utf8');
      expect(text).not.toContain('sk-live-0123456789');
      expect(text).toContain('[LWYRM_AUDIT_TEST_KEY redacted]');
    } finally {
      delete process.env['LWYRM_AUDIT_TEST_KEY'];
    }
  });

  it('a [q]uit answer comes back marked so the engine can stop the turn', async () => {
    const registry = createToolRegistry({ config: makeConfig(root), vision: false, readOnly: false });
    const r = await registry.run('bash', { command: 'echo x' }, makeContext(root, { answer: 'quit' }));
    expect(r).toMatchObject({ ok: false, quit: true, interrupted: true });
  });
});

describe('read_offloaded', () => {
  const registry = () => createToolRegistry({ config: makeConfig(root, { maxToolOutputChars: 100 }), vision: false, readOnly: false });

  it('returns a stored result, and a clear error for an unknown ref', async () => {
    const ctx = makeContext(root, { offload: { off_0001: 'full text' } });
    expect((await registry().run('read_offloaded', { ref: 'off_0001' }, ctx)).content).toBe('full text');
    const missing = await registry().run('read_offloaded', { ref: 'off_9999' }, ctx);
    expect(missing.ok).toBe(false);
    expect(missing.content).toMatch(/no such ref "off_9999"/);
  });

  it('pages through a very large one with offset and limit', async () => {
    const big = Array.from({ length: 100 }, (_, i) => `row ${i + 1}`).join('\n');
    const ctx = makeContext(root, { offload: { off_0002: big }, config: { maxToolOutputChars: 100 } });
    const head = await registry().run('read_offloaded', { ref: 'off_0002' }, ctx);
    expect(head.content).toMatch(/^row 1\nrow 2\n/);
    expect(head.content).toMatch(/next page: read_offloaded\(ref="off_0002", offset=\d+\)\]$/);
    const part = await registry().run('read_offloaded', { ref: 'off_0002', offset: 50, limit: 2 }, ctx);
    expect(part.content).toBe('row 50\nrow 51\n[off_0002: lines 50-51 of 100; next page: read_offloaded(ref="off_0002", offset=52, limit=2)]');
  });
});

describe('view_image', () => {
  it('detects the type from the bytes and returns the image', async () => {
    const registry = createToolRegistry({ config: makeConfig(root), vision: true, readOnly: false });
    const r = await registry.run('view_image', { path: 'shot.dat' }, makeContext(root, { vision: true }));
    expect(r.ok).toBe(true);
    expect(r.images?.[0]?.mediaType).toBe('image/png');
    expect(Buffer.from(r.images?.[0]?.base64 ?? '', 'base64').equals(PNG)).toBe(true);
    const fake = await registry.run('view_image', { path: 'fake.png' }, makeContext(root, { vision: true }));
    expect(fake.content).toMatch(/not a PNG, JPEG, GIF or WebP/);
  });

  it('sniffs all four formats', () => {
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('GIF89a...'))).toBe('image/gif');
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImage(Buffer.from('hello'))).toBeUndefined();
  });

  it('refuses a too-large image naming the limit', async () => {
    await writeFile(path.join(root, 'huge.png'), Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
    const registry = createToolRegistry({ config: makeConfig(root), vision: true, readOnly: false });
    const r = await registry.run('view_image', { path: 'huge.png' }, makeContext(root, { vision: true }));
    expect(r.content).toMatch(/the limit is 5\.0 MB/);
  });
});

describe('describeToolCall', () => {
  it.each([
    ['edit_file', { path: 'prices.py', old_string: 'a', new_string: 'b' }, 'edit_file prices.py'],
    ['bash', { command: 'npm test\nrm -rf /' }, 'bash npm test …'],
    ['grep', { pattern: 'TODO', path: 'src' }, 'grep TODO in src'],
    ['list_dir', {}, 'list_dir .'],
    ['read_offloaded', { ref: 'off_0001' }, 'read_offloaded off_0001'],
    ['read_file', { path: 'evil\x1b[2J\u202e.txt' }, 'read_file evil\\x1b[2J\\u202e.txt'],
    ['read_symbol', { name: 'parse' }, 'read_symbol parse'],
    ['read_file', 'garbage', 'read_file'],
  ])('%s %j → %s', (name, input, expected) => {
    expect(describeToolCall(name, input)).toBe(expected);
  });

  it('keeps long commands short', () => {
    expect(describeToolCall('bash', { command: 'x'.repeat(500) }).length).toBeLessThanOrEqual(90);
  });
});
