/** Child process: takes a session's lock, says so on stdout, then waits to be killed. */
import { createSessionStore } from '../../../src/sessions/session-store.js';

const [dir, projectRoot, id] = process.argv.slice(2) as [string, string, string];
const store = createSessionStore({ dir, projectRoot });
await store.lock(id);
process.stdout.write('locked\n');
setInterval(() => undefined, 60_000);
