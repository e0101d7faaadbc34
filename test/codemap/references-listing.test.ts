/** find_references lists every reference of a symbol used thousands of times: past the first lines with their text, by place. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCodeMap, type CodeMap } from '../../src/codemap/code-map.js';
import type { Config } from '../../src/config/types.js';
import { tempProject, toolContext, type TempProject } from './helpers.js';

const USES = 3000;
let tp: TempProject;
let map: CodeMap;
let config: Config;

beforeAll(async () => {
  tp = await tempProject();
  await tp.write('src/lib.ts', 'export function used(): number {\n  return 1;\n}\n');
  const lines = ["import { used } from './lib.js';"];
  for (let i = 0; i < USES; i++) lines.push(`export function f${i}(): number { return used(); }`);
  await tp.write('src/uses.ts', `${lines.join('\n')}\n`);
  config = await tp.config();
  map = await openCodeMap({ projectRoot: tp.project, cacheDir: tp.cacheDir, config, worker: 'off', typeChecker: false });
});

afterAll(async () => {
  await map.close();
  await tp.cleanup();
});

describe('a symbol with thousands of references', () => {
  it('lists each of them with file:line and the symbol it sits in, not a count of the rest', async () => {
    const r = await map.tools().find((t) => t.name === 'find_references')!.run({ name: 'used' }, toolContext(config));
    expect(r.ok, r.content).toBe(true);
    const places = [...r.content.matchAll(/^ {2}src\/uses\.ts:(\d+) (f\d+) \[calls\]/gm)];
    expect(places).toHaveLength(USES);
    expect(new Set(places.map((m) => m[1])).size).toBe(USES);
    expect(places.at(-1)![2]).toBe(`f${USES - 1}`);
    expect(r.content).not.toMatch(/… \d+ more/);
  });
});
