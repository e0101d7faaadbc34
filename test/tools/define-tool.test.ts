/**
 * defineTool: one declaration gives a tool its schema, its argument checks, its transcript title
 * and a typed failure kind for everything that goes wrong — so a tool added from outside (a
 * protocol server's, a skill) plugs into the registry, the audit log and the transcript alike.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { arg, optional } from '../../src/tools/args.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { failure, success } from '../../src/tools/results.js';
import { makeConfig } from './make-config.js';
import { makeContext, makeTempDir } from './make-context.js';

let root: string;
beforeAll(async () => {
  root = await makeTempDir('lwyrm-define-');
  await writeFile(path.join(root, 'a.txt'), 'hello\n');
});

const greet = defineTool({
  name: 'greet',
  description: 'Greets someone.',
  args: {
    who: arg.string('Whom to greet.', { nonEmpty: true, trim: true }),
    times: optional(arg.integer('How often.', { min: 1, max: 3 })),
    loud: optional(arg.boolean('Shout.')),
  },
  kind: 'none',
  title: (input) => (typeof input['who'] === 'string' ? `hello ${input['who']}` : undefined),
  async run({ who, times, loud }) {
    if (who === 'nobody') return failure('greet: nobody to greet.', undefined, 'not_found');
    if (who === 'boom') throw new Error('it broke');
    const line = `hi ${who}`.repeat(times ?? 1);
    return success(loud ? line.toUpperCase() : line, 'greeted');
  },
});

describe('defineTool', () => {
  it('makes the schema from the declared arguments', () => {
    expect(greet.inputSchema).toEqual({
      type: 'object',
      properties: {
        who: { type: 'string', description: 'Whom to greet.' },
        times: { type: 'integer', minimum: 1, description: 'How often.' },
        loud: { type: 'boolean', description: 'Shout.' },
      },
      required: ['who'],
      additionalProperties: false,
    });
  });

  it('hands the handler checked, typed arguments, and bad ones come back as invalid_args', async () => {
    const ctx = makeContext(root);
    expect((await greet.run({ who: '  ann ', times: '2', loud: 'true' }, ctx)).content).toBe('HI ANNHI ANN');
    for (const [input, said] of [
      [{}, 'missing required argument "who" (a string)'],
      [{ who: 7 }, 'argument "who" must be a string, got a number'],
      [{ who: ' ' }, 'argument "who" must not be empty'],
      [{ who: 'a', times: 4 }, 'argument "times" must be at most 3, got 4'],
      [{ who: 'a', loud: 'yes' }, 'argument "loud" must be true or false, got a string'],
      ['who=a', 'arguments must be a JSON object'],
    ] as const) {
      const r = await greet.run(input, ctx);
      expect(r, JSON.stringify(input)).toMatchObject({ ok: false, failure: 'invalid_args', content: `greet: ${said}` });
    }
  });

  it('turns a thrown error into a failed result, and keeps the handler’s own kind', async () => {
    const ctx = makeContext(root);
    expect(await greet.run({ who: 'boom' }, ctx)).toMatchObject({ ok: false, failure: 'failed', content: 'greet failed: it broke' });
    expect(await greet.run({ who: 'nobody' }, ctx)).toMatchObject({ ok: false, failure: 'not_found' });
  });

  it('a tool from elsewhere plugs into the registry: offered after the built-ins, titled, audited, withheld under --read-only if it changes things', async () => {
    const log = path.join(await makeTempDir('lwyrm-define-audit-'), 'audit.jsonl');
    const search = defineTool({
      name: 'mcp__docs__search',
      description: 'Search the docs server.',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      kind: 'other',
      changes: true,
      title: (input) => (typeof input['query'] === 'string' ? `"${input['query']}"` : undefined),
      run: async (args) => success(`results for ${String(args['query'])}`, '3 results', { target: 'docs' }),
    });
    const config = makeConfig(root, { auditLog: log });
    const registry = createToolRegistry({ config, vision: false, readOnly: false, extraTools: [search] });
    expect(registry.schemas().at(-1)).toEqual({ name: 'mcp__docs__search', description: 'Search the docs server.', inputSchema: search.inputSchema });
    expect(registry.describe('mcp__docs__search', { query: 'rate limits' })).toBe('mcp__docs__search "rate limits"');
    expect((await registry.run('mcp__docs__search', { query: 'x' }, makeContext(root, { config: { auditLog: log } }))).ok).toBe(true);
    const line = JSON.parse((await readFile(log, 'utf8')).trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ tool: 'mcp__docs__search', event: 'outcome', status: 'ok', target: 'docs' });

    const readOnly = createToolRegistry({ config, vision: false, readOnly: true, extraTools: [search] });
    expect(readOnly.schemas().map((s) => s.name)).not.toContain('mcp__docs__search');
    expect(await readOnly.run('mcp__docs__search', { query: 'x' }, makeContext(root))).toMatchObject({ ok: false, failure: 'denied' });
  });
});

describe('failure kinds of the built-in tools', () => {
  it('say what went wrong as data, for every way a call can fail', async () => {
    const registry = createToolRegistry({ config: makeConfig(root, { bashTimeoutMs: 100 }), vision: false, readOnly: false });
    const run = (name: string, input: unknown, opts: Parameters<typeof makeContext>[1] = {}) => registry.run(name, input, makeContext(root, opts));
    expect((await run('read_file', { path: 'missing.txt' })).failure).toBe('not_found');
    expect((await run('read_file', { path: 'a.txt', offset: 0 })).failure).toBe('invalid_args');
    expect((await run('read_file', { path: 'a.txt', offset: 9 })).failure).toBe('invalid_args');
    expect((await run('edit_file', { path: 'a.txt', old_string: 'nope', new_string: 'x' })).failure).toBe('not_found');
    expect((await run('write_file', { path: 'b.txt', content: 'x' }, { answer: 'no' })).failure).toBe('denied');
    expect((await run('bash', { command: 'exit 3' })).failure).toBe('failed');
    expect((await run('bash', { command: 'sleep 5', timeout_ms: 50 })).failure).toBe('timeout');
    expect((await run('no_such_tool', {})).failure).toBe('not_found');
    expect((await run('read_offloaded', { ref: 'off_0001' })).failure).toBe('not_found');
    expect((await run('bash', { command: 'echo hi' })).failure).toBeUndefined();
  });

  it('a denial carries the target it judged, the real path', async () => {
    const r = await createToolRegistry({ config: makeConfig(root), vision: false, readOnly: false }).run(
      'write_file',
      { path: 'c.txt', content: 'x' },
      makeContext(root, { answer: 'no' }),
    );
    expect(r).toMatchObject({ ok: false, failure: 'denied', target: path.join(root, 'c.txt') });
  });
});
