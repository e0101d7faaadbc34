/**
 * The bundled string-width (scripts/lazy-unicode.ts) measures exactly what the package measures:
 * every character of its fast path one by one, mixed strings of them with and without colours,
 * and text beyond it (emoji, CJK, combining marks, Hangul), which takes the package's own path.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { KNOWN_NARROW, lazyUnicodeSource } from '../../scripts/lazy-unicode.js';

type Width = (text: string, options?: { ambiguousIsNarrow?: boolean }) => number;

const temp: string[] = [];
afterAll(async () => {
  for (const dir of temp) await rm(dir, { recursive: true, force: true });
});

/** The package's index.js, and the same file as the bundle gets it, both loaded. */
async function load(pkgDir: string, version: 7 | 8): Promise<{ original: Width; bundled: Width }> {
  const file = resolve(pkgDir, 'index.js');
  const original = ((await import(pathToFileURL(file).href)) as { default: Width }).default;
  const requireHere = createRequire(file);
  // The copy lives elsewhere: its imports point at the packages the original resolves.
  const source = lazyUnicodeSource(await readFile(file, 'utf8'), version).replace(/from '([^'.][^']*)'/g, (_m, spec: string) => `from '${pathToFileURL(requireHere.resolve(spec)).href}'`);
  const dir = await mkdtemp(join(tmpdir(), 'lw-lazy-unicode-'));
  temp.push(dir);
  await writeFile(join(dir, 'index.mjs'), source);
  const bundled = ((await import(pathToFileURL(join(dir, 'index.mjs')).href)) as { default: Width }).default;
  return { original, bundled };
}

/** Every code point the fast path covers. */
function knownNarrow(): string[] {
  const test = new RegExp(KNOWN_NARROW);
  const out: string[] = [];
  for (let cp = 0x20; cp <= 0x2600; cp++) if (test.test(String.fromCodePoint(cp))) out.push(String.fromCodePoint(cp));
  return out;
}

const BEYOND = ['😀', '👍🏽', '👨‍👩‍👧', '漢字', 'e\u0301', '©', '®', '©\uFE0F', '‼', '\u00AD', '한국어', '\u1100\u1161', 'ｱ', '1\uFE0F\u20E3', '\u200B', 'a\tb', '🇫🇷', '⚠', '⚠\uFE0F'];

const PACKAGES: readonly [string, 7 | 8][] = [
  ['node_modules/string-width', 8],
  ['node_modules/wrap-ansi/node_modules/string-width', 7],
];

describe('the bundled string-width', () => {
  for (const [dir, version] of PACKAGES) {
    it(`measures what string-width ${version} measures`, async () => {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version: string };
      expect(Number(pkg.version.split('.')[0])).toBe(version);
      const { original, bundled } = await load(dir, version);
      const chars = knownNarrow();
      expect(chars.length).toBeGreaterThan(700);
      for (const ch of chars) {
        for (const ambiguousIsNarrow of [true, false]) {
          expect(bundled(ch, { ambiguousIsNarrow }), `U+${ch.codePointAt(0)!.toString(16)}`).toBe(original(ch, { ambiguousIsNarrow }));
        }
      }
      // Mixed strings, coloured or not, and text beyond the fast path mixed in.
      let seed = 7;
      const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      for (let i = 0; i < 400; i++) {
        let text = '';
        for (let k = next(30); k >= 0; k--) text += next(10) === 0 ? BEYOND[next(BEYOND.length)]! : chars[next(chars.length)]!;
        const coloured = `\x1b[3${next(8)}m${text}\x1b[39m`;
        for (const sample of [text, coloured]) expect(bundled(sample), JSON.stringify(sample)).toBe(original(sample));
      }
      for (const sample of BEYOND) expect(bundled(sample), sample).toBe(original(sample));
    });
  }

  it('fails the build when the package no longer looks as the step expects', () => {
    expect(() => lazyUnicodeSource('export default function stringWidth() { return 0; }\n', 8)).toThrow(/no segmenter declaration/);
  });
});

// The bundle itself carries the transformed module (a build that skipped the step would not).
describe('the built view', () => {
  it('builds no Unicode table while it loads', async () => {
    const dist = resolve('dist');
    const { readdirSync } = await import('node:fs');
    const chunks = readdirSync(dist).filter((f) => f.endsWith('.js'));
    const text = (await Promise.all(chunks.map((f) => readFile(join(dist, f), 'utf8')))).join('\n');
    expect(text).toContain('rgiEmojiRegex__get');
    expect(text).not.toMatch(/^var rgiEmojiRegex = /m);
    expect(text).not.toMatch(/^var segmenter\d* = new Intl\.Segmenter\(\);$/m);
    expect(dirname(dist)).toBe(process.cwd());
  });
});
