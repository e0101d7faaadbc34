/** The overlays' key layers: the approval modal and the sessions panel each own the keyboard while open. */
import type { ApprovalDecision } from '../../src/policy/types.js';
import type { KeyLayer } from './use-key-router.js';
import type { CommandEffect } from '../../hooks/use-commands.js';
import type { KeyCommand } from './key-commands.js';
import type { AppKeyDeps } from './app-keys.js';
import { FOLLOW } from '../transcript/transcript-window.js';

/** PgUp / PgDn in the modal's diff. */
const MODAL_PAGE_ROWS = 8;

const DECISIONS: Record<string, ApprovalDecision> = { y: 'yes', n: 'no', a: 'always', q: 'quit' };

export const SCROLL_STEP: Partial<Record<KeyCommand['name'], number | 'page-up' | 'page-down'>> = {
  up: -1,
  down: 1,
  scrollUp: -1,
  scrollDown: 1,
  pageUp: 'page-up',
  pageDown: 'page-down',
};

export function approvalLayer(d: AppKeyDeps): KeyLayer {
  return {
    name: 'approval',
    active: d.approval !== null,
    handle(cmd) {
      const req = d.approval!;
      if (cmd.name === 'text') {
        const decision = DECISIONS[cmd.text.toLowerCase()];
        if (decision) d.commands.answer(req.id, decision);
      } else if (cmd.name === 'interrupt') {
        d.commands.answer(req.id, 'quit');
        // Also a Ctrl+C like any other (stop, clear, count toward the second that leaves).
        return false;
      } else {
        const step = SCROLL_STEP[cmd.name];
        if (step !== undefined) {
          const page = d.modalPageRef?.current || MODAL_PAGE_ROWS;
          const delta = step === 'page-up' ? -page : step === 'page-down' ? page : step;
          d.setModalScroll((s) => Math.min(Math.max(0, s + delta), d.modalMaxRef.current));
        }
      }
      return true;
    },
  };
}

export function sessionsLayer(
  d: AppKeyDeps,
  apply: (effect: CommandEffect) => void,
  runSlash: (text: string) => void,
): KeyLayer {
  return {
    name: 'sessions',
    active: d.panel?.kind === 'sessions',
    handle(cmd) {
      const p = d.panel;
      if (p?.kind !== 'sessions') return false;
      const chosen = p.sessions[p.selected];
      if (p.confirmDelete) {
        if (cmd.name === 'text' && cmd.text.toLowerCase() === 'y' && chosen) {
          void d.commands.runSlash(`/sessions delete ${chosen.id}`).then((effect) => {
            if (effect.kind === 'flash') apply(effect);
            runSlash('/sessions');
          });
        }
        d.setPanel({ ...p, confirmDelete: false });
        return true;
      }
      if (cmd.name === 'up' || cmd.name === 'down') {
        const selected = Math.min(Math.max(0, p.selected + (cmd.name === 'up' ? -1 : 1)), Math.max(0, p.sessions.length - 1));
        d.setPanel({ ...p, selected });
      } else if (cmd.name === 'submit' && chosen) {
        d.setPanel(null);
        d.setScroll(FOLLOW);
        runSlash(`/sessions resume ${chosen.id}`);
      } else if (cmd.name === 'text' && cmd.text.toLowerCase() === 'd' && chosen) {
        d.setPanel({ ...p, confirmDelete: true });
      } else if (cmd.name === 'escape' || cmd.name === 'interrupt') {
        d.setPanel(null);
      }
      return true;
    },
  };
}
