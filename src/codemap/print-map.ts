/** `lwyrm --map`: the project's code map on stdout, no model and no API key involved. */
import type { Config } from '../config/types.js';
import { join } from 'node:path';
import { appPaths } from '../config/paths.js';
import { CODE_CACHE_FOLDER, codeMapCacheDirFor, defaultMapBudget, openCodeMap } from './code-map.js';

const DEFAULT_WINDOW = 128_000;

export async function printCodeMap(config: Config): Promise<string> {
  if (!config.codeMap.enabled) return 'The code map is turned off (code_map = false in the configuration).\n';
  const preset = config.presets.find((p) => p.name === config.defaultPreset);
  const budget = config.codeMap.budgetTokens ?? defaultMapBudget(preset?.contextWindow ?? DEFAULT_WINDOW);
  const map = await openCodeMap({
    projectRoot: config.projectRoot,
    cacheDir: codeMapCacheDirFor(config.projectRoot),
    config,
    codeCacheDir: join(appPaths().codeMapCacheDir, CODE_CACHE_FOLDER),
    onWarning: (message) => process.stderr.write(`lwyrm: ${message}\n`),
  });
  try {
    return `${map.mapText(budget)}\n`;
  } finally {
    await map.close();
  }
}
