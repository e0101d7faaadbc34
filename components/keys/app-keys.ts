/**
 * The app's key layers, in priority order: approval modal > sessions panel > text panel >
 * global keys > composer > transcript. The router asks them in this order; the first that
 * consumes a key wins, so an open modal owns the keyboard.
 */
import { useRef, type Dispatch, type SetStateAction } from 'react';
import type { PendingApproval } from '../../src/agent/state.js';
import type { ApprovalDecision } from '../../src/policy/types.js';
import type { EngineQuestion } from '../../src/agent/state.js';
import type { SessionSummary } from '../../src/sessions/types.js';
import type { KeyLayer } from './use-key-router.js';
import type { CommandEffect } from '../../hooks/use-commands.js';
import type { SlashCommandInfo } from '../../src/slash/types.js';
import { clearText, composerKey, fullText, replaceText, takeText, type ComposerState } from '../composer/composer-state.js';
import type { TerminalControl } from '../terminal/terminal-control.js';
import { helpText } from '../composer/slash-commands.js';
import type { Flash } from '../composer/composer-area.js';
import { FOLLOW, scrollBy, scrollHome, type ScrollMetrics, type ScrollState } from '../transcript/transcript-window.js';
import { approvalLayer, questionLayer, sessionsLayer, SCROLL_STEP } from './overlay-keys.js';
import { useTypingGuard } from './typing-guard.js';
import type { ModalMode } from '../approval/approval-modal.js';
import { rewindLayer } from './rewind-keys.js';
import type { RewindPanelState } from '../panels/rewind-panel.js';
import { bufferOf } from '../composer/edit-buffer.js';
import { afterTheRequestLeaves } from '../../hooks/request-first.js';

export type Panel =
  | { readonly kind: 'text'; readonly title: string; readonly text: string; readonly scroll: number }
  | {
      readonly kind: 'sessions';
      readonly sessions: readonly SessionSummary[];
      readonly selected: number;
      readonly confirmDelete: boolean;
    }
  | ({ readonly kind: 'rewind' } & RewindPanelState);

/** A second Ctrl+C within this long leaves. */
export const DOUBLE_CTRL_C_MS = 2000;

/** Esc twice within this long, on an empty input, opens the rewind picker. */
export const DOUBLE_ESC_MS = 800;

export interface AppKeyDeps {
  readonly approval: PendingApproval | null;
  /** An engine question waiting for an answer (a budget, a summary ahead, a model switch). */
  readonly question?: EngineQuestion | null;
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
  /** `drawLater`: the ref now, the screen after the prompt's request left (request-first.ts). */
  readonly setComposer: (next: ComposerState, drawLater?: boolean) => void;
  readonly setScroll: Dispatch<SetStateAction<ScrollState>>;
  readonly setExpandReasoning: Dispatch<SetStateAction<boolean>>;
  readonly setPanel: Dispatch<SetStateAction<Panel | null>>;
  readonly setModalScroll: Dispatch<SetStateAction<number>>;
  /** What the approval modal shows: its answers, the reason field, the [s]ave preview. */
  readonly modalMode?: ModalMode;
  readonly setModalMode?: (mode: ModalMode) => void;
  /** Switches the modal between clipped long lines and the whole text. */
  readonly setModalFull?: Dispatch<SetStateAction<boolean>>;
  readonly setQueued: Dispatch<SetStateAction<string | null>>;
  readonly setFlash: Dispatch<SetStateAction<Flash | null>>;
  readonly commands: {
    runSlash(text: string): Promise<CommandEffect>;
    submit(text: string): void;
    interrupt(): void;
    answer(id: string, decision: ApprovalDecision, note?: string): void;
    answerQuestion?(id: string, value: string): void;
  };
  /** The engine's slash commands, for Tab completion. */
  readonly slashCommands: readonly SlashCommandInfo[];
  /** Project paths for @ completion (ignored and denied ones left out). */
  readonly mentionPaths?: readonly string[];
  /** The queued text, read when Ctrl+C puts it back into the input. */
  readonly queuedRef?: { readonly current: string | null };
  /** Suspend, redraw, the external editor; absent in tests that render the app alone. */
  readonly terminal?: TerminalControl;
  /** A prompt was sent: it goes into the project's history file. */
  readonly onRemember?: (text: string) => void;
  readonly onExit: () => void;
}


export function useAppKeys(d: AppKeyDeps): KeyLayer[] {
  const lastCtrlC = useRef(0);
  const lastEsc = useRef(0);
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
      case 'rewind':
        d.setPanel({ kind: 'rewind', view: effect.view, selected: 0, scroll: 0, asking: false });
        return;
      case 'rewound':
        d.setPanel({ kind: 'text', title: '/rewind', text: effect.text, scroll: 0 });
        d.setScroll(FOLLOW);
        // The prompt it went back before returns to the input, to send again or change.
        if (effect.input !== undefined) d.setComposer({ ...d.composerRef.current, buffer: bufferOf(effect.input) });
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
      // The request first, then the redraw (request-first.ts).
      d.commands.submit(text);
      afterTheRequestLeaves(() => d.setScroll(FOLLOW));
    }
  };
  const runSlash = (text: string): void => {
    void d.commands.runSlash(text).then(apply);
  };

  const sources = () => ({ commands: d.slashCommands, paths: d.mentionPaths ?? [] });
  /** Ctrl+G: the prompt in $VISUAL / $EDITOR; what the editor saved comes back as the input. */
  const openEditor = (): void => {
    const terminal = d.terminal;
    if (!terminal) return;
    void terminal.editText(fullText(d.composerRef.current)).then((result) => {
      if (result.kind === 'error') d.setFlash({ text: result.message, error: true });
      else d.setComposer(replaceText(d.composerRef.current, result.text.replace(/\n$/, '')));
    });
  };

  const modal = approvalLayer(d);
  const question = questionLayer(d);
  const sessions = sessionsLayer(d, apply, runSlash);
  const rewindPanel = d.panel?.kind === 'rewind' ? d.panel : undefined;
  const rewind = rewindLayer({
    panel: rewindPanel,
    setPanel: (next) => d.setPanel(next ? { kind: 'rewind', ...next } : null),
    runSlash: (text) => d.commands.runSlash(text),
    apply,
  });

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
        if (d.composerRef.current.search) {
          // Ctrl+C in a history search only ends the search, as in a shell.
          lastCtrlC.current = 0;
          const next = composerKey(d.composerRef.current, cmd, sources());
          if (next) d.setComposer(next);
          return true;
        }
        if (d.busy) d.commands.interrupt();
        const queued = d.busy ? (d.queuedRef?.current ?? null) : null;
        if (queued !== null) {
          // The queued message is not lost with the turn: it comes back to edit or send again.
          const typed = fullText(d.composerRef.current);
          d.setComposer(replaceText(clearText(d.composerRef.current), typed.trim() === '' ? queued : `${queued}\n${typed}`));
        } else {
          d.setComposer(clearText(d.composerRef.current));
        }
        d.setQueued(null);
        d.setPanel(null);
        const stopped = queued !== null ? 'Stopped; the queued message is back in the input.' : 'Stopped.';
        const flash: Flash = { text: d.busy ? `${stopped} Press Ctrl+C again to leave.` : 'Press Ctrl+C again to leave.' };
        const after: Flash | null = d.busy ? { text: stopped } : null;
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
      if (cmd.name === 'escape' && !d.composerRef.current.search) {
        d.setFlash(null);
        const now = Date.now();
        if (d.composerRef.current.buffer.text === '' && !d.busy && d.panel === null && now - lastEsc.current < DOUBLE_ESC_MS) {
          lastEsc.current = 0;
          runSlash('/rewind');
        } else {
          lastEsc.current = now;
        }
        return true;
      }
      if (cmd.name === 'redraw') {
        d.terminal?.redraw();
        return true;
      }
      if (cmd.name === 'suspend') {
        d.terminal?.suspend();
        return true;
      }
      if (cmd.name === 'openEditor') {
        openEditor();
        return true;
      }
      lastEsc.current = 0;
      return false;
    },
  };

  const composer: KeyLayer = {
    name: 'composer',
    active: true,
    handle(cmd) {
      if (cmd.name === 'submit') {
        if (d.composerRef.current.search) {
          d.setComposer(composerKey(d.composerRef.current, cmd, sources()) ?? d.composerRef.current);
          return true;
        }
        const { state, text } = takeText(d.composerRef.current);
        if (text.trim() === '') return true;
        if (text.trim().startsWith('/')) {
          d.setComposer(state);
          d.setFlash(null);
          runSlash(text.trim());
        } else {
          // No redraw when no flash shows (React skips an unchanged state); a refusal's flash
          // (set when the engine answers) must not be cleared after it.
          d.setFlash(null);
          // Emptied now for the keys that follow, drawn once the request has left (request-first.ts).
          d.setComposer(state, !d.busy);
          send(text);
        }
        d.onRemember?.(text);
        return true;
      }
      const next = composerKey(d.composerRef.current, cmd, sources());
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

  return [typing.clock, typing.guard(modal, d.approval?.id), typing.guard(question, d.question?.id), sessions, rewind, textPanel, global, composer, transcript];
}
