/**
 * A scripted Engine for view tests: the real store and reducer (src/agent/store.ts) hold the
 * state, the test dispatches engine events, and every command the view sends is recorded.
 */
import { createEventStore, type EventStore } from '../../src/agent/store.js';
import type { EngineEvent } from '../../src/agent/events.js';
import type { Engine, SessionState, SlashResult, TurnOutcome } from '../../src/agent/state.js';
import type { ApprovalDecision } from '../../src/policy/types.js';
import type { SessionSummary } from '../../src/sessions/types.js';
import { ZERO_USAGE } from '../../src/providers/types.js';

export function initialState(patch: Partial<SessionState> = {}): SessionState {
  return {
    sessionId: 'sess-1234abcd',
    preset: { name: 'flash', format: 'anthropic', model: 'deepseek-chat' },
    thinking: true,
    thinkingEffort: 'high',
    markdown: true,
    projectRoot: '/home/dev/shop',
    permissionSummary: 'read=allow write=confirm delete=confirm bash=confirm',
    blocks: [],
    busy: false,
    pendingApproval: null,
    lastUsage: null,
    sessionUsage: ZERO_USAGE,
    sessionCost: null,
    context: { usedTokens: 0, measured: false, window: 128_000, threshold: 96_000 },
    ...patch,
  };
}

export type SlashReply = SlashResult & { readonly sessions?: readonly SessionSummary[] };

export class FakeEngine implements Engine {
  readonly store: EventStore;
  readonly submitted: string[] = [];
  readonly answers: { id: string; decision: ApprovalDecision; note?: string }[] = [];
  readonly questionAnswers: { id: string; value: string }[] = [];
  readonly slashes: string[] = [];
  interrupts = 0;
  disposed = 0;
  slashReply: (command: string) => SlashReply = () => ({});
  /** What the MCP servers list, as `server:uri` (a test sets it once "they have answered"). */
  resources: string[] = [];
  private nextId = 0;

  constructor(state: SessionState = initialState(), frameMs = 0) {
    this.store = createEventStore(state, frameMs);
  }

  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);
  getSnapshot = (): SessionState => this.store.getSnapshot();

  /** Dispatches events and publishes at once (tests do not wait for frames). */
  emit(...events: EngineEvent[]): void {
    for (const event of events) this.store.dispatch(event);
    this.store.flush();
  }

  id(prefix = 'b'): string {
    this.nextId += 1;
    return `${prefix}${this.nextId}`;
  }

  submit(text: string): Promise<TurnOutcome> {
    this.submitted.push(text);
    this.emit({ type: 'turn.start', blockId: this.id('u'), text });
    return Promise.resolve({ status: 'finished', result: '', steps: 0 });
  }

  interrupt(): void {
    this.interrupts += 1;
  }

  answer(approvalId: string, decision: ApprovalDecision, note?: string): void {
    this.answers.push(note === undefined ? { id: approvalId, decision } : { id: approvalId, decision, note });
    this.emit({ type: 'approval.resolved', id: approvalId });
  }

  mentionResources(): readonly string[] {
    return this.resources;
  }

  answerQuestion(id: string, value: string): void {
    this.questionAnswers.push({ id, value });
    this.emit({ type: 'question.resolved', id, value });
  }

  runSlash(command: string): Promise<SlashResult> {
    this.slashes.push(command);
    return Promise.resolve(this.slashReply(command));
  }

  dispose(): Promise<void> {
    this.disposed += 1;
    return Promise.resolve();
  }
}
