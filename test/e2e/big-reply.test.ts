/**
 * A reply of a few megabytes through the built CLI: it reaches stdout whole, the saved session
 * holds it once (in the history; the index stays small, no streamed-text file is left behind),
 * and `--json` carries it whole. A write_file call of megabytes writes the file byte for byte and
 * goes back to the model exactly (a request body that large is sent in pieces). The memory
 * figures for 50 MB are scripts/bench-stream.ts's.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { FakeFormat } from '../support/fake-provider.js';
import { run, useBuild, useFakeEnv } from './support/cli.js';

vi.setConfig({ testTimeout: 90_000 });

const cli = useBuild();

/** ~3 MB of lines, with non-ASCII characters and a surrogate pair in every line. */
const LINE = 'const total = items.reduce((s, i) => s + i.price, 0); // Σ prix — 🐉 ok\n';
const REPLY = LINE.repeat(Math.ceil(3_000_000 / LINE.length));

async function sessionFiles(root: string): Promise<{ name: string; bytes: number }[]> {
  const dir = join(root, 'data', 'lindwyrm', 'sessions');
  const out: { name: string; bytes: number }[] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    const info = await stat(join(dir, String(name)));
    if (info.isFile()) out.push({ name: String(name), bytes: info.size });
  }
  return out;
}

describe.each<FakeFormat>(['anthropic', 'openai'])('a reply of a few megabytes over %s', (format) => {
  const env = useFakeEnv(format);

  it('streams to stdout whole and is saved once, in the history', async () => {
    const e = await env.setup([{ text: REPLY, pieceChars: 40 }]);
    const r = await run(cli(), e, ['-p', 'write it out']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(REPLY);
    const files = await sessionFiles(e.root);
    const bytes = Buffer.byteLength(REPLY);
    const history = files.filter((f) => f.name.endsWith('.jsonl'));
    expect(history).toHaveLength(1);
    expect(history[0]!.bytes).toBeGreaterThan(bytes);
    // The index names the history; it never carries the answer (it did, rewritten every second).
    for (const f of files.filter((f) => f.name.endsWith('.meta.json'))) expect(f.bytes).toBeLessThan(20_000);
    expect(files.some((f) => f.name.endsWith('.streamed'))).toBe(false);
    // All the session's files together: the answer once, and little else.
    expect(files.reduce((sum, f) => sum + f.bytes, 0)).toBeLessThan(bytes * 1.2);
    const saved = (await readFile(join(e.root, 'data', 'lindwyrm', 'sessions', history[0]!.name), 'utf8')).trim().split('\n');
    const reply = JSON.parse(saved.at(-1)!) as { role: string; content: { type: string; text?: string }[] };
    expect(reply.role).toBe('assistant');
    expect(reply.content.find((b) => b.type === 'text')?.text).toBe(REPLY);
  });

  it('a write_file call of megabytes writes the file exactly and sends the call back exactly', async () => {
    // Past the size at which a request body is streamed (request-body.ts).
    const content = REPLY.repeat(2);
    const e = await env.setup([{ toolCalls: [{ name: 'write_file', input: { path: 'big.txt', content } }], pieceChars: 64 }, { text: 'Done.' }]);
    const r = await run(cli(), e, ['-p', 'write it out', '--allow', 'write']);
    expect(r.status).toBe(0);
    expect(await readFile(join(e.project, 'big.txt'), 'utf8')).toBe(content);
    const second = env.fake().requests[1]!;
    expect(Number(second.headers['content-length'])).toBe(Buffer.byteLength(second.raw));
    const sent = JSON.stringify(second.body);
    if (format === 'anthropic') {
      expect(sent).toContain(JSON.stringify({ path: 'big.txt', content }));
    } else {
      expect(sent).toContain(JSON.stringify(JSON.stringify({ path: 'big.txt', content })));
    }
  });

  it('--json carries the whole reply as its result', async () => {
    const e = await env.setup([{ text: REPLY, pieceChars: 40 }]);
    const r = await run(cli(), e, ['-p', 'write it out', '--json']);
    expect(r.status).toBe(0);
    expect(r.stdout.endsWith('}\n')).toBe(true);
    const json = JSON.parse(r.stdout) as { status: string; result: string };
    expect(json.status).toBe('finished');
    expect(json.result).toBe(REPLY);
  });
});
