/** Child process: waits for "go" on stdin, tries to take a session's lock, prints won/lost, then idles. */
import { SessionLockedError } from '../../../src/sessions/errors.js';
import { createSessionStore } from '../../../src/sessions/session-store.js';

const [dir, projectRoot, id] = process.argv.slice(2) as [string, string, string];
const store = createSessionStore({ dir, projectRoot });
process.stdout.write('ready\n');
process.stdin.once('data', () => {
  store.lock(id).then(
    () => process.stdout.write('won\n'),
    (error: unknown) => process.stdout.write(error instanceof SessionLockedError ? 'lost\n' : `error ${String(error)}\n`),
  );
});
setInterval(() => undefined, 60_000);
