/**
 * The User-Agent every model request carries. Gateways behind common CDNs answer 403 to a
 * request without one, and a provider's logs can tell lindwyrm's traffic apart by it.
 */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * `lindwyrm/<version>`, the version from the package's own package.json. It is looked for a level
 * or two up because this module runs from src/providers/ in tests and from a dist/ chunk when
 * built; read once, and only when the first client is made.
 */
export function userAgent(): string {
  cached ??= `lindwyrm/${packageVersion() ?? '0.0.0'}`;
  return cached;
}

function packageVersion(): string | undefined {
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'lindwyrm' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: try the next level
    }
  }
  return undefined;
}
