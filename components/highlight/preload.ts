/** Loading, ahead of a render that cannot wait for a second one, the highlighters a text's code fences need. */
import { loadLanguage } from './highlighter.js';
import { languageOfFence, type CodeLanguage } from './languages.js';

/** The languages of a markdown text's code fences. */
export function fenceLanguages(markdown: string): CodeLanguage[] {
  const found = new Set<CodeLanguage>();
  for (const m of markdown.matchAll(/^ *(?:`{3,}|~{3,})([^`\n]*)$/gm)) {
    const lang = m[1]!.trim() === '' ? undefined : languageOfFence(m[1]!);
    if (lang) found.add(lang);
  }
  return [...found];
}

/** Resolves once they are loaded, or after `timeoutMs` (code then shows plain). */
export async function preloadLanguages(markdown: string, timeoutMs: number): Promise<void> {
  const langs = fenceLanguages(markdown);
  if (langs.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref?.();
  });
  await Promise.race([Promise.all(langs.map((l) => loadLanguage(l))), timeout]).finally(() => clearTimeout(timer));
}
