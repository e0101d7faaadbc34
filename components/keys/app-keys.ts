/**
 * The app's key layers, in priority order: approval modal > sessions panel > text panel >
 * global keys > composer > transcript. The router asks them in this order; the first that
 * consumes a key wins, so an open modal owns the keyboard.
 */
import { useRef, type Dispatch, type SetStateAction } from 'react';
import type { PendingApproval } from '../../src/agent/state.js';
import type { ApprovalDecision } from '../../src/policy/types.js';
import type { SessionSummary } from '../../src/sessions/types.js';
import type { KeyLayer } from './use-key-router.js';
import type { CommandEffect } from '../../hooks/use-commands.js';
import type { SlashCommandInfo } from '../../src/slash/types.js';
import { clearText, composerKey, takeText, type ComposerState } from '../composer/composer-state.js';
import { helpText } from '../composer/slash-commands.js';
import type { Flash } from '../composer/composer-area.js';
import { FOLLOW, scrollBy, scrollHome, type ScrollMetrics, type ScrollState } from '../transcript/transcript-window.js';
import { approvalLayer, sessionsLayer, SCROLL_STEP } from './overlay-keys.js';
import { useTypingGuard } from './typing-guard.js';
import type { ModalMode } from '../approval/approval-modal.js';

export type Panel =
  | { readonly kind: 'text'; readonly title: string; readonly text: string; readonly scroll: number }
  | {
      readonly kind: 'sessions';
      readonly sessions: readonly SessionSummary[];
      readonly selected: number;
      readonly confirmDelete: boolean;
    };

/** A second Ctrl+C within this long leaves. */
export const DOUBLE_CTRL_C_MS = 2000;

export interface AppKeyDeps {
  readonly approval: PendingApproval | null;
  readonly busy: boolean;
  readonly panel: Panel | null;
  readonly composerRef: { readonly current: ComposerState };
  readonly metricsRef: { readonly current: ScrollMetrics };
  readonly modalMaxRef: { readonly current: number };
  /** How far the open text panel can scroll. */
  readonly panelMaxRef?: { readonly current: number };
  /** How many rows PgUp / PgDn move in the modal and in the text panel (what they show). */
  readonly modalPageRef?: { readonly current: number };
  readonly panelPageRef?: { readonly current: number };
  readonly setComposer: (next: ComposerState) => void;
  readonly setScroll: Dispatch<SetStateAction<ScrollState>>;
  readonly setExpandReasoning: Dispatch<SetStateAction<boolean>>;
  readonly setPanel: Dispatch<SetStateAction<Panel | null>>;
  readonly setModalScroll: Dispatch<SetStateAction<number>>;
  /** What the approval modal shows: its answers, the reason field, the [s]ave preview. */
  readonly modalMode?: ModalMode;
  readonly setModalMode?: (mode: ModalMode) => void;
  readonly setQueued: Dispatch<SetStateAction<string | null>>;
  readonly setFlash: Dispatch<SetStateAction<Flash | null>>;
  readonly commands: {
    runSlash(text: string): Promise<CommandEffect>;
    submit(text: string): void;
    interrupt(): void;
    answer(id: string, decision: ApprovalDecision, note?: string): void;
  };
  /** The engine's slash commands, for Tab completion. */
  readonly slashCommands: readonly SlashCommandInfo[];
  readonly onExit: () => void;
}


export function useAppKeys(d: AppKeyDeps): KeyLayer[] {
  const lastCtrlC = useRef(0);
  // The "press Ctrl+C again" flash, replaced once a second Ctrl+C would no longer leave.
  const ctrlCFlash = useRef<{ flash: Flash; after: Flash | null } | null>(null);
  const expireCtrlC = (flash: Flash): void => {
    const shown = ctrlCFlash.current;
    if (shown?.flash !== flash) return;
    ctrlCFlash.current = null;
    d.setFlash((f) => (f === flash ? shown.after : f));
  };
  const typing = useTypingGuard();

  const apply = (effect: CommandEffect): void => {
    switch (effect.kind) {
      case 'none':
        return;
      case 'exit':
        d.onExit();
        return;
      case 'flash':
        d.setFlash(effect.error ? { text: effect.text, error: true } : { text: effect.text });
        return;
      case 'panel':
        d.setPanel({ kind: 'text', title: effect.title, text: effect.text, scroll: 0 });
        return;
      case 'help':
        d.setPanel({ kind: 'text', title: '/help', text: helpText(effect.commandList), scroll: 0 });
        return;
      case 'prompt':
        send(effect.text);
        return;
      case 'sessions':
        d.setPanel({ kind: 'sessions', sessions: effect.sessions, selected: 0, confirmDelete: false });
        return;
      default: {
        const unhandled: never = effect;
        return unhandled;
      }
    }
  };
  /** A prompt: sent now, or queued until the running turn ends. */
  const send = (text: string): void => {
    // A prompt's answer must not stream behind /help or /policy.
    if (d.panel?.kind === 'text') d.setPanel(null);
    if (d.busy) {
      d.setQueued((q) => (q === null ? text : `${q}\n${text}`));
    } else {
      d.setScroll(FOLLOW);
      d.commands.submit(text);
    }
  };
  const runSlash = (text: string): void => {
    void d.commands.runSlash(text).then(apply);
  };

  const modal = approvalLayer(d);
  const sessions = sessionsLayer(d, apply, runSlash);

  const textPanel: KeyLayer = {
    name: 'text-panel',
    active: d.panel?.kind === 'text',
    handle(cmd) {
      const step = SCROLL_STEP[cmd.name];
      if (step !== undefined) {
        const page = d.panelPageRef?.current || 10;
        const delta = step === 'page-up' ? -page : step === 'page-down' ? page : step;
        const max = d.panelMaxRef?.current ?? Number.MAX_SAFE_INTEGER;
        // Clamped, so coming back up after PgDn past the end moves at once.
        d.setPanel((p) => (p?.kind === 'text' ? { ...p, scroll: Math.min(Math.max(0, Math.min(p.scroll, max) + delta), max) } : p));
        return true;
      }
      if (cmd.name === 'escape') {
        d.setPanel(null);
        return true;
      }
      return false;
    },
  };

  const global: KeyLayer = {
    name: 'global',
    active: true,
    handle(cmd) {
      if (cmd.name === 'interrupt') {
        const now = Date.now();
        if (now - lastCtrlC.current < DOUBLE_CTRL_C_MS) {
          d.onExit();
          return true;
        }
        lastCtrlC.current = now;
        if (d.busy) d.commands.interrupt();
        d.setComposer(clearText(d.composerRef.current));
        d.setQueued(null);
        d.setPanel(null);
        const flash: Flash = { text: d.busy ? 'Stopped. Press Ctrl+C again to leave.' : 'Press Ctrl+C again to leave.' };
        const after: Flash | null = d.busy ? { text: 'Stopped.' } : null;
        ctrlCFlash.current = { flash, after };
        d.setFlash(flash);
        // unref: leaving with the second Ctrl+C must not wait for this.
        setTimeout(() => expireCtrlC(flash), DOUBLE_CTRL_C_MS).unref();
        return true;
      }
      lastCtrlC.current = 0;
      if (ctrlCFlash.current) expireCtrlC(ctrlCFlash.current.flash);
      if (cmd.name === 'eof') {
        if (d.composerRef.current.buffer.text === '') d.onExit();
        return true;
      }
      if (cmd.name === 'toggleReasoning') {
        d.setExpandReasoning((v) => !v);
        return true;
      }
      if (cmd.name === 'escape') {
        d.setFlash(null);
        return true;
      }
      return false;
    },
  };

  const composer: KeyLayer = {
    name: 'composer',
    active: true,
    handle(cmd) {
      if (cmd.name === 'submit') {
        const { state, text } = takeText(d.composerRef.current);
        if (text.trim() === '') return true;
        d.setComposer(state);
        d.setFlash(null);
        if (text.trim().startsWith('/')) runSlash(text.trim());
        else send(text);
        return true;
      }
      const next = composerKey(d.composerRef.current, cmd, d.slashCommands);
      if (next === undefined) return false;
      if (next !== d.composerRef.current) d.setComposer(next);
      return true;
    },
  };

  const transcript: KeyLayer = {
    name: 'transcript',
    active: true,
    handle(cmd) {
      const m = d.metricsRef.current;
      const page = Math.max(1, m.height - 1);
      switch (cmd.name) {
        case 'scrollUp':
          d.setScroll(scrollBy(m, -1));
          return true;
        case 'scrollDown':
          d.setScroll(scrollBy(m, 1));
          return true;
        case 'pageUp':
          d.setScroll(scrollBy(m, -page));
          return true;
        case 'pageDown':
          d.setScroll(scrollBy(m, page));
          return true;
        case 'scrollTop':
          d.setScroll(scrollHome(m));
          return true;
        case 'scrollBottom':
          d.setScroll(FOLLOW);
          return true;
        default:
          return false;
      }
    },
  };

  return [typing.clock, typing.guard(modal, d.approval?.id), sessions, textPanel, global, composer, transcript];
}
