/** Driving a real terminal in tests: tmux, when it is installed (`.ci/run` installs it). */
import { execFileSync } from 'node:child_process';

export const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasTmux) console.warn('test/tui: tmux is not installed; skipping the real-terminal tests (.ci/run installs it)');

/**
 * Polls until the condition holds (the screen is the event there is to wait on); on timeout the
 * error carries `screen()`, what the pane showed.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, screen: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Ends a test's tmux server and waits until it is gone. `kill-server` returns before the server
 * has exited: a `new-session` on the same socket in the meantime reaches the dying server and
 * fails with "server exited unexpectedly".
 */
export async function endServer(tmux: (...args: string[]) => string, timeoutMs = 5000): Promise<void> {
  try {
    tmux('kill-server');
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      tmux('list-sessions');
    } catch (err) {
      const said = String((err as { stderr?: unknown }).stderr ?? err);
      if (/no server running|error connecting|No such file/i.test(said)) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
