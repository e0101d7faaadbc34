/** Locating an executable on PATH once, without spawning a shell. */
import { access, constants } from 'node:fs/promises';
import path from 'node:path';

const cache = new Map<string, Promise<string | undefined>>();

export function findOnPath(name: string, envPath: string | undefined = process.env['PATH']): Promise<string | undefined> {
  const key = `${name}\0${envPath ?? ''}`;
  let found = cache.get(key);
  if (found === undefined) {
    found = (async () => {
      for (const dir of (envPath ?? '').split(path.delimiter)) {
        if (dir === '') continue;
        const candidate = path.join(dir, name);
        try {
          await access(candidate, constants.X_OK);
          return candidate;
        } catch {
          // not here
        }
      }
      return undefined;
    })();
    cache.set(key, found);
  }
  return found;
}
