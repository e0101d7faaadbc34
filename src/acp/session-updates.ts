/**
 * One ACP session's view of the engine: engine events become `session/update` notifications —
 * message and thought chunks, tool calls and their updates (diffs, locations, an embedded
 * terminal), the context gauge. Tool calls run one at a time, so "the current call" is the one
 * a permission request, a file write or a client terminal belongs to.
 */
import type { EngineEvent } from '../agent/events.js';
import { escapeForDisplay } from '../policy/escape.js';
import { acpKind, locationsOf } from './tool-view.js';
import { approves } from '../policy/types.js';

type Update = Record<string, unknown> & { sessionUpdate: string };

export interface CurrentCall {
  readonly toolCallId: string;
  readonly name: string;
  readonly input: unknown;
  readonly title: string;
}

export interface UpdateBridge {
  onEvent(event: EngineEvent): void;
  /** A file the current call wrote: shown as a diff on the call. */
  fileWritten(path: string, oldText: string | null, newText: string): void;
  /** The client terminal the current call runs in: embedded in the call before it is released. */
  terminalCreated(terminalId: string): void;
  current(): CurrentCall | undefined;
}

/** Live output kept on a call (the result carries the whole, as the model saw it). */
const OUTPUT_TAIL = 16_000;

export function createUpdateBridge(opts: { notify: (update: Update) => void; projectRoot: string }): UpdateBridge {
  let cost: number | null = null;
  let call: (CurrentCall & { output: string; diffs: Record<string, unknown>[]; terminal?: string; started: boolean }) | undefined;

  const update = (fields: Record<string, unknown>): void => {
    if (call) opts.notify({ sessionUpdate: 'tool_call_update', toolCallId: call.toolCallId, ...fields });
  };
  const content = (): Record<string, unknown>[] => {
    if (!call) return [];
    const parts: Record<string, unknown>[] = [...call.diffs];
    if (call.terminal) parts.push({ type: 'terminal', terminalId: call.terminal });
    return parts;
  };
  const text = (t: string): Record<string, unknown> => ({ type: 'content', content: { type: 'text', text: t } });

  return {
    current: () => call,
    onEvent(event) {
      switch (event.type) {
        case 'assistant.delta':
          opts.notify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } });
          break;
        case 'reasoning.delta':
          opts.notify({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } });
          break;
        case 'tool.start':
          call = { toolCallId: event.callId, name: event.name, input: event.input, title: event.title, output: '', diffs: [], started: false };
          opts.notify({
            sessionUpdate: 'tool_call',
            toolCallId: event.callId,
            title: event.title,
            kind: acpKind(event.name, event.kind),
            status: 'pending',
            rawInput: event.input ?? {},
            locations: locationsOf(event.name, event.input, opts.projectRoot),
          });
          break;
        case 'approval.resolved':
          if (call && event.decision !== undefined && approves(event.decision)) {
            call.started = true;
            update({ status: 'in_progress' });
          }
          break;
        case 'tool.output':
          if (!call) break;
          call.output = (call.output + event.text).slice(-OUTPUT_TAIL);
          if (!call.started) {
            call.started = true;
            update({ status: 'in_progress' });
          }
          // A client terminal shows the output itself.
          if (!call.terminal) update({ content: [...content(), text(call.output)] });
          break;
        case 'tool.end': {
          if (!call) break;
          const cancelled = event.status === 'interrupted';
          const result = escapeForDisplay(event.content ?? event.summary);
          update({
            status: event.status === 'ok' ? 'completed' : 'failed',
            content: [...content(), text(cancelled ? `Cancelled: ${result}` : result)],
            rawOutput: { status: cancelled ? 'cancelled' : event.status, summary: escapeForDisplay(event.summary) },
          });
          call = undefined;
          break;
        }
        case 'notice':
          // Warnings only: the editor has no place for lindwyrm's chatter, but a failed save matters.
          if (event.level !== 'info') {
            opts.notify({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `\nlindwyrm: ${escapeForDisplay(event.text)}\n` } });
          }
          break;
        case 'usage':
          cost = event.sessionCost;
          break;
        case 'context':
          opts.notify({
            sessionUpdate: 'usage_update',
            used: event.gauge.usedTokens,
            size: event.gauge.window,
            ...(cost !== null ? { cost: { amount: cost, currency: 'USD' } } : {}),
          });
          break;
        default:
          break;
      }
    },
    fileWritten(path, oldText, newText) {
      if (!call) return;
      call.diffs.push({ type: 'diff', path, oldText, newText });
      update({ content: content(), locations: [{ path }] });
    },
    terminalCreated(terminalId) {
      if (!call) return;
      call.terminal = terminalId;
      call.started = true;
      update({ status: 'in_progress', content: content() });
    },
  };
}
