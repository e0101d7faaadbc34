/** The full-screen layout and the key routing; everything else lives in the panes. */
import { useCallback, useContext, useEffect, useMemo, useRef, useState, type SetStateAction } from 'react';
import { Box } from 'ink';
import { RowOverlayContext } from './terminal/row-overlay.js';
import { useEngineState } from '../hooks/use-engine-state.js';
import { useKeyRouter } from './keys/use-key-router.js';
import { useTerminalSize, type TerminalSize } from '../hooks/use-terminal-size.js';
import { useCommands } from '../hooks/use-commands.js';
import { useSlashCommands } from '../hooks/use-slash-commands.js';
import type { SessionState } from '../src/agent/state.js';
import { Header } from './header.js';
import { computeLayout, modalMaxRows } from './layout.js';
import { TranscriptPane } from './transcript/transcript-pane.js';
import { FOLLOW, reanchor, type ScrollMetrics, type ScrollState } from './transcript/transcript-window.js';
import { ReasoningPane, liveReasoning } from './reasoning-pane.js';
import { StatusLine } from './status/status-line.js';
import { ApprovalModal, approvalHeight, type ModalMode } from './approval/approval-modal.js';
import { QuestionModal } from './question/question-modal.js';
import { questionHeight } from './question/question-rows.js';
import { ComposerArea, composerCaret, composerExtras, composerLayout, type Flash } from './composer/composer-area.js';
import { composerKey, composerWithHistory, replaceText, type ComposerState } from './composer/composer-state.js';
import type { KeyCommand } from './keys/key-commands.js';
import type { TerminalControl } from './terminal/terminal-control.js';
import { TextPanel } from './panels/text-panel.js';
import { SessionsPanel } from './panels/sessions-panel.js';
import { RewindPanel } from './panels/rewind-panel.js';
import { afterTheRequestLeaves } from '../hooks/request-first.js';
import { useAppKeys, type Panel } from './keys/app-keys.js';

const selectBlocks = (s: SessionState) => s.blocks;
const selectMarkdown = (s: SessionState) => s.markdown;
const selectApproval = (s: SessionState) => s.pendingApproval;
const selectQuestion = (s: SessionState) => s.pendingQuestion ?? null;
const selectBusy = (s: SessionState) => s.busy;
const selectSessionId = (s: SessionState) => s.sessionId;
const selectRoot = (s: SessionState) => s.projectRoot;
const selectReasoning = (s: SessionState) => liveReasoning(s.blocks);

export interface AppProps {
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  readonly size?: TerminalSize;
  readonly initialPrompt?: string;
  /** Called once when the user leaves (/exit, Ctrl+D on an empty line, Ctrl+C twice). */
  readonly onExit: () => void;
  /** Suspend, redraw, the editor, the real cursor; absent when rendered alone (tests). */
  readonly terminal?: TerminalControl;
  /** The project's prompt history, kept across runs. */
  readonly history?: { readonly entries: readonly string[]; add(text: string): unknown };
  /** Project paths for @ completion, once listed. */
  readonly mentionPaths?: () => Promise<readonly string[]>;
  /** Keys typed into the early first frame (terminal/early-input.ts), applied to the input first. */
  readonly typed?: readonly KeyCommand[];
}

export function App({ size, initialPrompt, onExit, terminal, history, mentionPaths, typed }: AppProps) {
  const { columns: width, rows } = useTerminalSize(size);
  const blocks = useEngineState(selectBlocks);
  const markdown = useEngineState(selectMarkdown);
  const approval = useEngineState(selectApproval);
  const question = useEngineState(selectQuestion);
  const busy = useEngineState(selectBusy);
  const sessionId = useEngineState(selectSessionId);
  const projectRoot = useEngineState(selectRoot);
  const reasoning = useEngineState(selectReasoning);
  const commands = useCommands();
  const slashCommands = useSlashCommands();

  const [initialComposer] = useState(() => typedAhead(composerWithHistory(history?.entries ?? []), typed));
  const composerRef = useRef<ComposerState>(initialComposer);
  const [composer, setComposerState] = useState<ComposerState>(initialComposer);
  const setComposer = useCallback((next: ComposerState, drawLater?: boolean) => {
    composerRef.current = next;
    // Keys typed meanwhile read the ref; the drawing shows whatever it holds by then.
    if (drawLater) afterTheRequestLeaves(() => setComposerState(composerRef.current));
    else setComposerState(next);
  }, []);
  const [scroll, setScroll] = useState<ScrollState>(FOLLOW);
  const metricsRef = useRef<ScrollMetrics>({ total: 0, height: 0, top: 0 });
  const modalMaxRef = useRef(0);
  const panelMaxRef = useRef(0);
  const modalPageRef = useRef(0);
  const panelPageRef = useRef(0);
  const [expandReasoning, setExpandReasoning] = useState(false);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [modalScroll, setModalScroll] = useState(0);
  const [modalMode, setModalMode] = useState<ModalMode>('choose');
  const [reason, setReasonState] = useState('');
  // The field's latest text, for Enter: ink-text-input hands onSubmit the value of the render its
  // key handler was registered in, and on a busy machine Enter can come before the next one is.
  const reasonRef = useRef('');
  const setReason = useCallback((text: string) => {
    reasonRef.current = text;
    setReasonState(text);
  }, []);
  const [modalFull, setModalFull] = useState(false);
  const [queued, setQueuedState] = useState<string | null>(null);
  const queuedRef = useRef<string | null>(null);
  const setQueued = useCallback((next: SetStateAction<string | null>) => {
    queuedRef.current = typeof next === 'function' ? next(queuedRef.current) : next;
    setQueuedState(queuedRef.current);
  }, []);
  const [flash, setFlash] = useState<Flash | null>(null);
  const [paths, setPaths] = useState<readonly string[]>([]);
  useEffect(() => {
    let live = true;
    mentionPaths?.().then(
      (list) => live && setPaths(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [mentionPaths]);

  // Sends a prompt; if the engine refuses it, the text comes back to the input instead of vanishing.
  const send = useCallback(
    (text: string) =>
      commands.submit(text, (detail) => {
        setFlash({ text: `Not sent: ${detail}`, error: true });
        if (composerRef.current.buffer.text === '') setComposer(replaceText(composerRef.current, text));
      }),
    [commands, setComposer],
  );
  const keyCommands = useMemo(() => ({ ...commands, submit: send }), [commands, send]);

  // A new approval starts at the top of its body, on its answers, clipped, with an empty reason.
  useEffect(() => {
    setModalScroll(0);
    setModalMode('choose');
    setReason('');
    setModalFull(false);
  }, [approval?.id, setReason]);
  const sendReason = useCallback(
    () => {
      if (approval) commands.answer(approval.id, 'no', reasonRef.current);
    },
    [approval, commands],
  );
  // A new or resumed session (/clear, /sessions) starts at its live tail, not at the old scroll offset.
  useEffect(() => setScroll(FOLLOW), [sessionId]);
  // After a resize the anchor resolved proportionally; take it again at the new width, so a block
  // still streaming below it does not shift the view as it grows.
  const lastWidth = useRef(width);
  useEffect(() => {
    if (lastWidth.current === width) return;
    lastWidth.current = width;
    setScroll((s) => reanchor(metricsRef.current, s));
  }, [width]);

  // Text typed while a turn ran goes out when it ends.
  useEffect(() => {
    if (busy || queued === null) return;
    setQueued(null);
    send(queued);
  }, [busy, queued, send, setQueued]);

  const started = useRef(false);
  useEffect(() => {
    if (started.current || initialPrompt === undefined || initialPrompt.trim() === '') return;
    started.current = true;
    send(initialPrompt);
  }, [initialPrompt, send]);

  const layers = useAppKeys({
    approval,
    question,
    busy,
    panel,
    composerRef,
    metricsRef,
    modalMaxRef,
    panelMaxRef,
    modalPageRef,
    panelPageRef,
    setComposer,
    setScroll,
    setExpandReasoning,
    setPanel,
    setModalScroll,
    modalMode,
    setModalMode,
    setModalFull,
    setQueued,
    setFlash,
    commands: keyCommands,
    slashCommands,
    // Project paths, then the MCP servers' resources as server:uri.
    mentionPaths: [...paths, ...commands.mentionResources()],
    queuedRef,
    onExit,
    ...(terminal ? { terminal } : {}),
    ...(history ? { onRemember: (text: string) => void history.add(text) } : {}),
  });
  useKeyRouter(layers);

  // An approval first: a question waits between steps, so both at once only when a slash command asks during one.
  const modalRows = approval
    ? approvalHeight(approval, width, modalMaxRows(rows), modalFull)
    : question
      ? questionHeight(question, width, modalMaxRows(rows))
      : undefined;
  const extras = composerExtras(composer, flash, queued, width, slashCommands);
  const inputLayout = useMemo(() => composerLayout(composer, width, busy, terminal === undefined), [composer, width, busy, terminal]);
  // Ctrl+O while the model reasons: the reasoning streams in full in the transcript instead of the pane.
  const paneReasoning = expandReasoning ? null : reasoning;
  const layout = computeLayout({
    rows,
    reasoning: paneReasoning !== null,
    composerRows: inputLayout.totalRows,
    composerExtras: extras,
    ...(modalRows !== undefined ? { modalRows } : {}),
  });

  // The real cursor at the caret while the input has the keys (not under a modal or the sessions list).
  const caret = composerCaret(inputLayout, layout.bottom, layout.composerRows);
  const focused = !approval && panel?.kind !== 'sessions';
  const cursorRow = focused ? rows - caret.rows + caret.row : -1;
  useEffect(() => {
    terminal?.setCursor(cursorRow >= 0 ? { row: cursorRow, column: caret.column } : undefined);
  }, [terminal, cursorRow, caret.column]);

  // Under runTui the transcript's rows bypass Ink (terminal/row-overlay.ts): Ink's frame is the
  // screen without them, and the frame writer inserts them below the header.
  const overlay = useContext(RowOverlayContext);
  const direct = overlay !== undefined && !layout.fullScreen && panel === null;
  return (
    <Box flexDirection="column" width={width} height={direct ? rows - layout.transcript : rows} overflowY="hidden">
      {layout.header > 0 ? <Header width={width} rows={layout.header} /> : null}
      {layout.fullScreen ? null : panel?.kind === 'text' ? (
        <TextPanel title={panel.title} text={panel.text} width={width} height={layout.transcript} scroll={panel.scroll} maxRef={panelMaxRef} pageRef={panelPageRef} />
      ) : panel?.kind === 'rewind' ? (
        <RewindPanel state={panel} width={width} height={layout.transcript} />
      ) : panel?.kind === 'sessions' ? (
        <SessionsPanel
          sessions={panel.sessions}
          selected={panel.selected}
          confirmDelete={panel.confirmDelete}
          currentId={sessionId}
          width={width}
          height={layout.transcript}
        />
      ) : (
        <TranscriptPane
          blocks={blocks}
          width={width}
          height={layout.transcript}
          markdown={markdown}
          expandReasoning={expandReasoning}
          inlineReasoning={layout.reasoning === 0}
          scroll={scroll}
          metricsRef={metricsRef}
          screenTop={layout.header}
        />
      )}
      {paneReasoning !== null && layout.reasoning > 0 ? <ReasoningPane block={paneReasoning} width={width} rows={layout.reasoning} /> : null}
      {layout.status > 0 ? <StatusLine width={width} /> : null}
      {approval && modalRows !== undefined ? (
        <ApprovalModal
          request={approval}
          width={width}
          height={layout.bottom}
          scroll={modalScroll}
          maxRef={modalMaxRef}
          pageRef={modalPageRef}
          projectRoot={projectRoot}
          full={modalFull}
          mode={modalMode}
          reason={reason}
          onReason={setReason}
          onReasonSubmit={sendReason}
        />
      ) : question && modalRows !== undefined ? (
        <QuestionModal question={question} width={width} height={layout.bottom} />
      ) : (
        <ComposerArea
          composer={composer}
          layout={inputLayout}
          width={width}
          height={layout.bottom}
          textRows={layout.composerRows}
          flash={flash}
          queued={queued}
          commands={slashCommands}
        />
      )}
    </Box>
  );
}

/** The input as the keys typed before the view was up left it (text and Backspace only). */
function typedAhead(state: ComposerState, typed: readonly KeyCommand[] | undefined): ComposerState {
  let next = state;
  for (const command of typed ?? []) next = composerKey(next, command, { commands: [], paths: [] }) ?? next;
  return next;
}
