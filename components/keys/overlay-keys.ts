/** The overlays' key layers: the approval modal, an engine question and the sessions panel each own the keyboard while open. */
import type { ApprovalDecision } from '../../src/policy/types.js';
import type { KeyLayer } from './use-key-router.js';
import type { CommandEffect } from '../../hooks/use-commands.js';
import type { KeyCommand } from './key-commands.js';
import type { AppKeyDeps } from './app-keys.js';
import { FOLLOW } from '../transcript/transcript-window.js';
import { WHOLE_TEXT_KEY } from '../approval/approval-rows.js';

/** PgUp / PgDn in the modal's body. */
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

/** Scroll keys in the modal's body, Home and End included; true when the key was one. */
function scrollModal(d: AppKeyDeps, cmd: KeyCommand): boolean {
  const max = d.modalMaxRef.current;
  // Home / End arrive as the input's line keys (Ctrl+Home / Ctrl+End as the transcript's): in the
  // modal both move to the top / the end of what is approved.
  if (cmd.name === 'scrollTop' || cmd.name === 'lineStart') {
    d.setModalScroll(0);
    return true;
  }
  if (cmd.name === 'scrollBottom' || cmd.name === 'lineEnd') {
    d.setModalScroll(max);
    return true;
  }
  const step = SCROLL_STEP[cmd.name];
  if (step === undefined) return false;
  const page = d.modalPageRef?.current || MODAL_PAGE_ROWS;
  const delta = step === 'page-up' ? -page : step === 'page-down' ? page : step;
  d.setModalScroll((s) => Math.min(Math.max(0, Math.min(s, max) + delta), max));
  return true;
}

/**
 * The approval modal's keys. Answers: y n a q, e (every command, bash), t (a no with words for the
 * model: the reason field), s (always, saved as a rule: shown first, then written), Esc (no).
 * In the reason field the field itself (ink-text-input) reads the keys; this layer only keeps them
 * from reaching anything else, and takes Esc and Ctrl+C.
 */
export function approvalLayer(d: AppKeyDeps): KeyLayer {
  const mode = d.modalMode ?? 'choose';
  return {
    // The reason field takes a paste like the input does.
    name: mode === 'reason' ? 'approval-text' : 'approval',
    active: d.approval !== null,
    handle(cmd) {
      const req = d.approval!;
      const key = cmd.name === 'text' ? cmd.text.toLowerCase() : undefined;
      if (cmd.name === 'interrupt') {
        d.commands.answer(req.id, 'quit');
        // Also a Ctrl+C like any other (stop, clear, count toward the second that leaves).
        return false;
      }
      if (mode === 'reason') {
        if (cmd.name === 'escape') d.commands.answer(req.id, 'no');
        return true;
      }
      if (mode === 'save') {
        if (cmd.name === 'submit' || key === 'y') d.commands.answer(req.id, 'save');
        else if (cmd.name === 'escape' || key === 'n') {
          d.setModalMode?.('choose');
          d.setModalScroll(0);
        } else scrollModal(d, cmd);
        return true;
      }
      if (key === 't') d.setModalMode?.('reason');
      else if (key === 's' && req.save !== undefined) {
        d.setModalMode?.('save');
        d.setModalScroll(0);
      } else if (key === 'e' && req.every === true) d.commands.answer(req.id, 'every');
      else if (key === WHOLE_TEXT_KEY && req.clipped !== undefined) {
        d.setModalFull?.((f) => !f);
        d.setModalScroll(0);
      }
      else if (key !== undefined && DECISIONS[key]) d.commands.answer(req.id, DECISIONS[key]);
      else if (cmd.name === 'escape') d.commands.answer(req.id, 'no');
      else scrollModal(d, cmd);
      return true;
    },
  };
}

/** An engine question: its keys answer, Enter takes the first answer, Esc and Ctrl+C its cancel. */
export function questionLayer(d: AppKeyDeps): KeyLayer {
  return {
    name: 'question',
    active: d.question !== null && d.question !== undefined,
    handle(cmd) {
      const q = d.question!;
      const reply = (value: string): void => d.commands.answerQuestion?.(q.id, value);
      if (cmd.name === 'text') {
        const choice = q.choices.find((c) => c.key === cmd.text.toLowerCase());
        if (choice) reply(choice.value);
      } else if (cmd.name === 'submit') {
        const first = q.choices[0];
        if (first) reply(first.value);
      } else if (cmd.name === 'escape') {
        reply(q.cancel);
      } else if (cmd.name === 'interrupt') {
        reply(q.cancel);
        // Also a Ctrl+C like any other (stop, clear, count toward the second that leaves).
        return false;
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
