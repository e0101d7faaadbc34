/**
 * A build step for the view's start-up (tsup.config.ts runs it as an esbuild plugin): Ink measures
 * text with string-width (8, and 7 inside wrap-ansi), whose modules build an Intl.Segmenter and
 * Unicode-property regular expressions (`\p{RGI_Emoji}` alone ~25 ms) the moment they load — on
 * the thread that also echoes keys typed at the first frame — and use them for every string
 * beyond printable ASCII, the first frame's `─ · … ›` included. The bundled copy:
 *
 * - builds them on first use instead of at load;
 * - measures a string made only of KNOWN_NARROW characters (Latin letters, general punctuation,
 *   box drawing and blocks) as the sum of their East Asian widths, which is what the full
 *   algorithm computes for them: each such character is a grapheme of its own, visible, not an
 *   emoji, not Hangul. test/cli/lazy-unicode.test.ts checks every one of them, and mixed strings,
 *   against the package's own code.
 *
 * The transform fails the build if the source no longer has the shape it expects.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/**
 * One code point per grapheme, visible, not an emoji (nor a part of one), not Hangul, not
 * Default_Ignorable: Latin-1 and Latin Extended-A/B (without the soft hyphen and ©, ®), general
 * punctuation up to U+203B (without ‼), box drawing, block elements.
 */
export const KNOWN_NARROW = String.raw`^[\u0020-\u007E\u00A1-\u00A8\u00AA-\u00AC\u00AF-\u024F\u2010-\u2027\u2030-\u203B\u2500-\u259F]*$`;

/** string-width's index.js, bundled as described above. */
export function lazyUnicodeSource(source: string, version: 7 | 8): string {
  let out = source;
  const lazy = (name: string, init: RegExp): void => {
    const declaration = init.exec(out);
    if (!declaration) throw new Error(`lazy-unicode: string-width ${version} has no ${name} declaration any more`);
    const value = declaration[1]!;
    out = out.slice(0, declaration.index) + out.slice(declaration.index + declaration[0].length);
    const uses = new RegExp(String.raw`\b${name}\b`, 'g');
    if (!uses.test(out)) throw new Error(`lazy-unicode: string-width ${version} no longer uses ${name}`);
    out = out.replace(uses, `${name}__get()`);
    out = `let ${name}__lazy;\nconst ${name}__get = () => (${name}__lazy ??= ${value});\n${out}`;
  };
  lazy('segmenter', /^const segmenter = (new Intl\.Segmenter\(\));$/m);
  if (version === 8) {
    for (const name of ['visibleCharacterRegex', 'spacingMarkRegex', 'rgiEmojiRegex', 'extendedPictographicRegex']) {
      lazy(name, new RegExp(String.raw`^const ${name} = (/.*/[a-z]*);$`, 'm'));
    }
  } else {
    lazy('defaultIgnorableCodePointRegex', /^const defaultIgnorableCodePointRegex = (\/.*\/[a-z]*);$/m);
  }
  // Right after the check that the string is not empty once its escape codes are stripped.
  const anchor = /\n(\s*)if \(string\.length === 0\) \{\n\s*return 0;\n\s*\}\n/.exec(out);
  if (!anchor) throw new Error(`lazy-unicode: string-width ${version} no longer checks for an empty string`);
  const indent = anchor[1]!;
  const fast =
    `${indent}if (/${KNOWN_NARROW}/.test(string)) {\n` +
    `${indent}\tlet knownWidth = 0;\n` +
    `${indent}\tfor (const character of string) knownWidth += eastAsianWidth(character.codePointAt(0), {ambiguousAsWide: !ambiguousIsNarrow});\n` +
    `${indent}\treturn knownWidth;\n` +
    `${indent}}\n`;
  const at = anchor.index + anchor[0].length;
  return out.slice(0, at) + fast + out.slice(at);
}

const STRING_WIDTH = /node_modules[\\/](wrap-ansi[\\/]node_modules[\\/])?string-width[\\/]index\.js$/;

export function lazyUnicodePlugin(): Plugin {
  return {
    name: 'lazy-unicode',
    setup(build) {
      build.onLoad({ filter: STRING_WIDTH }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const pkg = JSON.parse(await readFile(args.path.replace(/index\.js$/, 'package.json'), 'utf8')) as { version: string };
        const major = Number(pkg.version.split('.')[0]);
        if (major !== 7 && major !== 8) throw new Error(`lazy-unicode: string-width ${pkg.version} is not a version this step knows (7 or 8)`);
        return { contents: lazyUnicodeSource(source, major), loader: 'js' };
      });
    },
  };
}
