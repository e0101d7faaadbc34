/**
 * What the app asks of the terminal beyond drawing: suspend with Ctrl+Z (the normal screen back,
 * the job stopped for `fg`, the view redrawn on return), redraw with Ctrl+L, hand the prompt to
 * $VISUAL / $EDITOR (Ctrl+G) and put the real cursor at the input's caret.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Screen } from './screen.js';
import type { FrameWriter } from './frame-writer.js';

export type EditResult = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'error'; readonly message: string };

export interface TerminalControl {
  suspend(): void;
  redraw(): void;
  editText(text: string): Promise<EditResult>;
  /** The caret's place on screen (0-based), or undefined to hide the cursor (a modal has the keys). */
  setCursor(cursor: { row: number; column: number } | undefined): void;
}

export interface TerminalControlDeps {
  readonly screen: Screen;
  readonly writer: FrameWriter;
  readonly stdin: NodeJS.ReadStream;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Stops this process for job control; tests may replace it. */
  readonly stop?: () => void;
}

/** The editor command: $VISUAL, then $EDITOR, then vi; it may carry arguments ("code --wait"). */
export function editorCommand(env: Readonly<Record<string, string | undefined>>): string {
  return env['VISUAL']?.trim() || env['EDITOR']?.trim() || 'vi';
}

export function createTerminalControl(deps: TerminalControlDeps): TerminalControl {
  const env = deps.env ?? process.env;
  const setRaw = (on: boolean): void => {
    if (deps.stdin.isTTY) deps.stdin.setRawMode(on);
  };
  /** The normal screen back, cooked mode, for something else to use the terminal. */
  const leave = (): void => {
    deps.screen.leave();
    setRaw(false);
  };
  const back = (): void => {
    setRaw(true);
    deps.screen.enter();
    deps.writer.repaint();
  };
  return {
    suspend() {
      if (process.platform === 'win32') return;
      leave();
      process.once('SIGCONT', back);
      // The whole process group, as the terminal's own Ctrl+Z would: started through a wrapper
      // (npx, a shell script) lindwyrm alone stopped would leave the wrapper waiting in the
      // foreground, and the shell would never get the terminal back.
      (deps.stop ?? (() => process.kill(0, 'SIGTSTP')))();
    },
    redraw() {
      deps.writer.repaint();
    },
    editText(text) {
      const dir = mkdtempSync(join(tmpdir(), 'lwyrm-prompt-'));
      const file = join(dir, 'prompt.md');
      leave();
      try {
        writeFileSync(file, text, { mode: 0o600 });
        // Through the shell, so an editor set with arguments works; the file is "$1", never parsed.
        const run = spawnSync('/bin/sh', ['-c', `${editorCommand(env)} "$1"`, 'lwyrm-editor', file], { stdio: 'inherit', env: { ...process.env, ...env } });
        if (run.error) return Promise.resolve({ kind: 'error', message: `Could not start the editor (${editorCommand(env)}): ${run.error.message}` });
        if (run.status !== 0) return Promise.resolve({ kind: 'error', message: `The editor (${editorCommand(env)}) exited with status ${run.status ?? run.signal}; the input is unchanged.` });
        return Promise.resolve({ kind: 'text', text: readFileSync(file, 'utf8') });
      } catch (e) {
        return Promise.resolve({ kind: 'error', message: `The editor's file could not be used: ${(e as Error).message}` });
      } finally {
        rmSync(dir, { recursive: true, force: true });
        back();
      }
    },
    setCursor(cursor) {
      deps.writer.setCursor(cursor);
    },
  };
}
