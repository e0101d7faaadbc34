/**
 * The rewind picker's keys. In the list: ↑↓ choose a checkpoint; Enter previews going back in
 * code and conversation, c in code only, v in the conversation only. In the preview: Enter
 * restores; when files changed outside lindwyrm since, a second question asks whether to
 * overwrite them all (o), keep them all (k), or file by file (Space marks the one under the
 * cursor to be overwritten, Enter keeps the rest). Esc steps back, then closes. Nothing changes
 * before Enter.
 */
import type { KeyLayer } from './use-key-router.js';
import type { CommandEffect } from '../../hooks/use-commands.js';
import { outsidePaths, type RewindPanelState } from '../panels/rewind-panel.js';
import { overwriteWord } from '../../hooks/use-commands.js';

export interface RewindKeyDeps {
  readonly panel: RewindPanelState | undefined;
  setPanel(next: RewindPanelState | null): void;
  runSlash(text: string): Promise<CommandEffect>;
  apply(effect: CommandEffect): void;
}

const PART_KEYS: Readonly<Record<string, 'code' | 'conversation'>> = { c: 'code', v: 'conversation' };

export function rewindLayer(d: RewindKeyDeps): KeyLayer {
  return {
    name: 'rewind',
    active: d.panel !== undefined,
    handle(cmd) {
      const p = d.panel;
      if (!p) return false;
      const view = p.view;
      if (cmd.name === 'interrupt') {
        d.setPanel(null);
        return false; // still a Ctrl+C for the global keys
      }
      if (view.kind === 'list') {
        const chosen = view.checkpoints[p.selected];
        if (cmd.name === 'up' || cmd.name === 'down') {
          const selected = Math.min(Math.max(0, p.selected + (cmd.name === 'up' ? -1 : 1)), Math.max(0, view.checkpoints.length - 1));
          d.setPanel({ ...p, selected });
        } else if (chosen && (cmd.name === 'submit' || (cmd.name === 'text' && PART_KEYS[cmd.text.toLowerCase()]))) {
          const part = cmd.name === 'text' ? PART_KEYS[cmd.text.toLowerCase()] : chosen.hasConversation ? 'both' : 'code';
          void d.runSlash(`/rewind ${chosen.id} ${part}`).then((effect) => {
            if (effect.kind === 'rewind') d.setPanel({ view: effect.view, list: view, selected: p.selected, scroll: 0, asking: false });
            else d.apply(effect);
          });
        } else if (cmd.name === 'escape') {
          d.setPanel(null);
        }
        return true;
      }
      const back = (): void => d.setPanel(p.list ? { view: p.list, selected: p.selected, scroll: 0, asking: false } : null);
      const confirm = (overwrite: boolean | readonly string[]): void => {
        d.setPanel(null);
        const all = overwrite === true || (Array.isArray(overwrite) && overwrite.length > 0 && overwrite.length === outsidePaths(p).length);
        const word = all ? ' overwrite' : Array.isArray(overwrite) && overwrite.length > 0 ? ` ${overwriteWord(overwrite)}` : '';
        void d.runSlash(`/rewind ${view.preview.id} ${view.part} confirm${word}`).then(d.apply);
      };
      if (p.asking) {
        const paths = outsidePaths(p);
        const cursor = Math.min(p.cursor ?? 0, Math.max(0, paths.length - 1));
        const marked = p.marked ?? [];
        const key = cmd.name === 'text' ? cmd.text.toLowerCase() : '';
        if (key === 'o') confirm(true);
        else if (key === 'k') confirm(false);
        else if (key === ' ') {
          const path = paths[cursor];
          if (path !== undefined) d.setPanel({ ...p, cursor, marked: marked.includes(path) ? marked.filter((m) => m !== path) : [...marked, path] });
        } else if (cmd.name === 'up' || cmd.name === 'down') {
          d.setPanel({ ...p, cursor: Math.min(Math.max(0, cursor + (cmd.name === 'up' ? -1 : 1)), Math.max(0, paths.length - 1)) });
        } else if (cmd.name === 'submit') confirm(paths.filter((path) => marked.includes(path)));
        else if (cmd.name === 'escape') d.setPanel({ ...p, asking: false, marked: [], cursor: 0 });
        return true;
      }
      if (cmd.name === 'up' || cmd.name === 'down' || cmd.name === 'pageUp' || cmd.name === 'pageDown') {
        const step = cmd.name === 'up' ? -1 : cmd.name === 'down' ? 1 : cmd.name === 'pageUp' ? -10 : 10;
        d.setPanel({ ...p, scroll: Math.max(0, p.scroll + step) });
      } else if (cmd.name === 'submit' || (cmd.name === 'text' && cmd.text.toLowerCase() === 'y')) {
        const nothing = view.part === 'code' && view.preview.items.length === 0;
        if (nothing) back();
        else if (view.part !== 'conversation' && outsidePaths(p).length > 0) d.setPanel({ ...p, asking: true, marked: [], cursor: 0 });
        else confirm(false);
      } else if (cmd.name === 'escape') {
        back();
      }
      return true;
    },
  };
}
