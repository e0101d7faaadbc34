/**
 * The rewind picker's keys. In the list: ↑↓ choose a checkpoint; Enter previews going back in
 * code and conversation, c in code only, v in the conversation only. In the preview: Enter
 * restores; when files changed outside lindwyrm since, a second question asks whether to
 * overwrite them (o) or keep them (k). Esc steps back, then closes. Nothing changes before Enter.
 */
import type { KeyLayer } from './use-key-router.js';
import type { CommandEffect } from '../../hooks/use-commands.js';
import type { RewindPanelState } from '../panels/rewind-panel.js';

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
      const confirm = (overwrite: boolean): void => {
        d.setPanel(null);
        void d.runSlash(`/rewind ${view.preview.id} ${view.part} confirm${overwrite ? ' overwrite' : ''}`).then(d.apply);
      };
      if (p.asking) {
        if (cmd.name === 'text' && cmd.text.toLowerCase() === 'o') confirm(true);
        else if (cmd.name === 'text' && cmd.text.toLowerCase() === 'k') confirm(false);
        else if (cmd.name === 'escape') d.setPanel({ ...p, asking: false });
        return true;
      }
      if (cmd.name === 'up' || cmd.name === 'down' || cmd.name === 'pageUp' || cmd.name === 'pageDown') {
        const step = cmd.name === 'up' ? -1 : cmd.name === 'down' ? 1 : cmd.name === 'pageUp' ? -10 : 10;
        d.setPanel({ ...p, scroll: Math.max(0, p.scroll + step) });
      } else if (cmd.name === 'submit' || (cmd.name === 'text' && cmd.text.toLowerCase() === 'y')) {
        const nothing = view.part === 'code' && view.preview.items.length === 0;
        if (nothing) back();
        else if (view.part !== 'conversation' && view.preview.changedOutside > 0) d.setPanel({ ...p, asking: true });
        else confirm(false);
      } else if (cmd.name === 'escape') {
        back();
      }
      return true;
    },
  };
}
