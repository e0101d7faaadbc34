/**
 * TypeScript and the tree-sitter grammars are not installed as packages: the build copies the
 * files lindwyrm uses into dist/vendor/ (scripts/third-party.ts), which keeps the install small
 * (TypeScript's compiler CLI, language service host and translations, and the grammars of
 * languages we do not parse, are left out). Run from source, there is no dist/vendor and the
 * packages in node_modules (devDependencies) serve instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Each vendored folder and the file that proves it is complete enough to use. */
export const VENDORED = {
  typescript: 'typescript.js',
  'tree-sitter': 'tree-sitter.js',
} as const;

export type VendoredName = keyof typeof VENDORED;

/** The grammars the code map and the highlighter load (tree-sitter-NAME.wasm); the build ships only these. */
export const SHIPPED_GRAMMARS = ['python', 'go', 'java', 'rust', 'c-sharp', 'cpp', 'ruby', 'php', 'bash'] as const;

/**
 * dist/vendor/NAME/ when this module runs from the build (every chunk sits directly in dist/),
 * else undefined.
 */
export function vendoredDir(name: VendoredName): string | undefined {
  const dir = fileURLToPath(new URL(`./vendor/${name}/`, import.meta.url));
  return existsSync(dir + VENDORED[name]) ? dir : undefined;
}
