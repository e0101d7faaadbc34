/**
 * Words that mix look-alike scripts — a Cyrillic `і` in `gіthub.com`, a Greek `ο` in `gοogle` — or
 * hold compatibility characters that read as plain letters (the `ﬁ` ligature, fullwidth `ｇ`,
 * mathematical `𝐠`). In an approval they make a command or a path look like another one, so
 * they are named. Scripts that mix in ordinary writing (Han with kana, CJK with Latin) are not.
 */

/** Scripts whose letters pass for Latin ones (and each other's). */
const LOOKALIKE_SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Cherokee', 'Coptic', 'Georgian'] as const;
type Script = (typeof LOOKALIKE_SCRIPTS)[number];

const SCRIPT_TESTS: ReadonlyArray<readonly [Script, RegExp]> = LOOKALIKE_SCRIPTS.map((s) => [s, new RegExp(`^\\p{Script=${s}}$`, 'u')] as const);

function scriptOf(ch: string): Script | undefined {
  for (const [script, test] of SCRIPT_TESTS) if (test.test(ch)) return script;
  return undefined;
}

const WORD = /[\p{L}\p{M}\p{N}_.-]+/gu;
// eslint-disable-next-line no-control-regex -- any code point past ASCII, controls included
const NON_ASCII = /[^\x00-\x7f]/;
const MAX_FLAGS = 5;

const hex = (ch: string): string => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** One description per suspicious word, at most a few (with a count of the rest). */
export function mixedScriptFlags(text: string): string[] {
  if (!NON_ASCII.test(text)) return [];
  const flags = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!NON_ASCII.test(line)) continue;
    for (const [word] of line.matchAll(WORD)) {
      if (!NON_ASCII.test(word) || flags.has(word)) continue;
      const flag = describeWord(word);
      if (flag !== undefined) flags.set(word, flag);
    }
  }
  const all = [...flags.values()];
  return all.length > MAX_FLAGS ? [...all.slice(0, MAX_FLAGS), `and ${all.length - MAX_FLAGS} more words like these`] : all;
}

function describeWord(word: string): string | undefined {
  const scripts = new Map<Script, string>();
  for (const ch of word) {
    // A character that normalises (NFKC) to plain ASCII is a ligature or a look-alike form.
    const plain = ch.normalize('NFKC');
    if (plain !== ch && /^[\x21-\x7e]+$/.test(plain)) return `"${word}" holds "${ch}" (${hex(ch)}), which reads as "${plain}"`;
    const script = scriptOf(ch);
    if (script !== undefined && !scripts.has(script)) scripts.set(script, ch);
  }
  if (scripts.size < 2) return undefined;
  // Name the odd ones out against the word's main script (Latin when present).
  const main: Script = scripts.has('Latin') ? 'Latin' : ([...scripts.keys()][0] as Script);
  const others = [...scripts].filter(([s]) => s !== main).map(([s]) => {
    const chars = [...new Set([...word].filter((c) => scriptOf(c) === s))];
    return `${chars.map((c) => `"${c}" (${hex(c)})`).join(', ')} ${chars.length === 1 ? 'is' : 'are'} ${s}`;
  });
  return `mixed scripts in "${word}": ${others.join('; ')}, among ${main} letters`;
}
