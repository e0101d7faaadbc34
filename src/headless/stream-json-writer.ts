/**
 * `--output-format stream-json`: engine events as one JSON object a line, shaped like Claude
 * Code's stream (system/init, assistant, user with tool_result, stream_event, result) so the
 * consumers written for it parse lindwyrm's too; lindwyrm's own events (approvals, usage with the
 * cost split, notices) are `system` lines with subtypes of their own. docs/stream-json.md lists
 * every event and field.
 */
import { randomUUID } from 'node:crypto';
import type { EngineEvent } from '../agent/events.js';
import type { LindwyrmEngine } from '../agent/engine.js';
import type { TurnOutcome, TurnStatus } from '../agent/state.js';
import type { ServerStatus } from '../mcp/server-connection.js';
import { escapeForDisplay } from '../policy/escape.js';
import type { ContentBlock, Usage } from '../providers/types.js';
import { writeJsonLine } from './json-line.js';
import { jsonResult } from './json-result.js';
import { costSplit, jsonUsage, usageFields } from './stream-json-usage.js';

export interface StreamJsonOptions {
  /** Writes output: a line (ending in its newline) may come in several pieces (json-line.ts). */
  readonly write: (line: string) => void;
  readonly includePartial: boolean;
  readonly version: string;
}

export interface StreamJsonWriter {
  /** The init line: what the session runs with. */
  start(engine: LindwyrmEngine): void;
  onEvent(event: EngineEvent): void;
  /** The result line of one turn (or of a run that never got to one), with the exit status. */
  result(outcome: TurnOutcome | undefined, engine: LindwyrmEngine | undefined, status: TurnStatus, exitStatus: number, error?: string): void;
}

const SUBTYPES: Readonly<Record<TurnStatus, string>> = {
  finished: 'success',
  incomplete: 'error_max_turns',
  error: 'error_during_execution',
  interrupted: 'error_during_execution',
};

/** Claude's content block shapes, from lindwyrm's neutral ones. */
function ccBlock(block: ContentBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, ...(block.signature ? { signature: block.signature } : {}) };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: block.toolUseId, content: escapeForDisplay(block.content), is_error: block.isError === true };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: block.image.mediaType, data: block.image.base64 } };
  }
}

/** An MCP server's status in the words stream-json consumers know. */
const MCP_STATUS: Readonly<Record<ServerStatus, string>> = { ready: 'connected', starting: 'pending', idle: 'pending', failed: 'failed' };

export function createStreamJsonWriter(opts: StreamJsonOptions): StreamJsonWriter {
  let engine: LindwyrmEngine | undefined;
  let sessionId: string | null = null;
  const started = Date.now();
  let apiMs = 0;
  let requestStarted: number | undefined;
  let messages = 0;
  let turnRequests = 0;
  let lastUsage: Usage | undefined;
  // Partial messages: the open message, its blocks by engine block id, and the next index.
  let openMessage: string | undefined;
  const blockIndex = new Map<string, number>();

  const emit = (line: Record<string, unknown>): void => {
    writeJsonLine({ ...line, session_id: sessionId, uuid: randomUUID() }, opts.write);
  };
  const system = (subtype: string, fields: Record<string, unknown>): void => emit({ type: 'system', subtype, ...fields });
  const streamEvent = (event: Record<string, unknown>): void => emit({ type: 'stream_event', event, parent_tool_use_id: null });
  const model = (): string | null => engine?.runtime.preset.model ?? null;

  const openBlock = (blockId: string, kind: 'text' | 'thinking'): number => {
    if (openMessage === undefined) {
      openMessage = `msg_${sessionId ?? 'lwyrm'}_${++messages}`;
      blockIndex.clear();
      requestStarted ??= Date.now();
      streamEvent({ type: 'message_start', message: { id: openMessage, type: 'message', role: 'assistant', model: model(), content: [] } });
    }
    let index = blockIndex.get(blockId);
    if (index === undefined) {
      index = blockIndex.size;
      blockIndex.set(blockId, index);
      streamEvent({ type: 'content_block_start', index, content_block: kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' } });
    }
    return index;
  };

  return {
    start(e) {
      engine = e;
      const rt = e.runtime;
      sessionId = rt.session.id;
      system('init', {
        cwd: rt.config.projectRoot,
        project_root: rt.config.projectRoot,
        model: rt.preset.model,
        preset: rt.preset.name,
        tools: rt.toolSchemas.map((t) => t.name),
        mcp_servers: (e.mcp?.servers() ?? []).map((s) => ({ name: s.name, status: MCP_STATUS[s.status] })),
        permissionMode: rt.readOnly ? 'plan' : 'default',
        read_only: rt.readOnly,
        output_style: 'default',
        lindwyrm_version: opts.version,
      });
    },
    onEvent(event) {
      switch (event.type) {
        case 'turn.start':
          turnRequests = 0;
          requestStarted = Date.now();
          break;
        case 'assistant.delta':
        case 'reasoning.delta': {
          if (!opts.includePartial) break;
          const text = event.type === 'assistant.delta';
          const index = openBlock(event.blockId, text ? 'text' : 'thinking');
          const delta = text ? { type: 'text_delta', text: event.text } : { type: 'thinking_delta', thinking: event.text };
          streamEvent({ type: 'content_block_delta', index, delta });
          break;
        }
        case 'block.end': {
          const index = blockIndex.get(event.blockId);
          if (opts.includePartial && index !== undefined) streamEvent({ type: 'content_block_stop', index });
          break;
        }
        case 'usage':
          lastUsage = event.lastUsage;
          if (requestStarted !== undefined) apiMs += Date.now() - requestStarted;
          requestStarted = undefined;
          system('usage', {
            usage: jsonUsage(event.lastUsage),
            cost: engine ? costSplit(event.lastUsage, engine.runtime.preset) : null,
            session_usage: jsonUsage(event.sessionUsage),
            session_cost: event.sessionCost,
          });
          break;
        case 'assistant.message': {
          turnRequests++;
          const id = openMessage ?? `msg_${sessionId ?? 'lwyrm'}_${++messages}`;
          if (opts.includePartial && openMessage !== undefined) {
            const stop = event.stopReason === 'interrupted' || event.stopReason === 'error' ? null : event.stopReason;
            streamEvent({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: lastUsage ? usageFields(lastUsage) : {} });
            streamEvent({ type: 'message_stop' });
          }
          openMessage = undefined;
          emit({
            type: 'assistant',
            message: {
              id,
              type: 'message',
              role: 'assistant',
              model: model(),
              content: event.message.content.map(ccBlock),
              stop_reason: event.stopReason,
              stop_sequence: null,
              usage: lastUsage ? usageFields(lastUsage) : null,
            },
            parent_tool_use_id: null,
          });
          lastUsage = undefined;
          requestStarted = Date.now();
          break;
        }
        case 'tool.end':
          if (event.callId === undefined) break;
          emit({
            type: 'user',
            message: {
              role: 'user',
              content: [{ type: 'tool_result', tool_use_id: event.callId, content: escapeForDisplay(event.content ?? event.summary), is_error: event.status !== 'ok' }],
            },
            parent_tool_use_id: null,
            tool_status: event.status,
            tool_summary: escapeForDisplay(event.summary),
          });
          break;
        case 'approval.request': {
          const r = event.request;
          system('approval_request', {
            request_id: r.id,
            tool: r.tool,
            kind: r.kind,
            summary: r.summary,
            reason: r.reason,
            ...(r.path !== undefined ? { path: r.path } : {}),
            ...(r.command !== undefined ? { command: r.command } : {}),
            ...(r.diff !== undefined ? { diff: r.diff } : {}),
            // What the text hides (control characters, look-alike letters), as the terminal shows it.
            ...(r.titleNote !== undefined || r.flags !== undefined ? { warnings: [r.titleNote, ...(r.flags ?? [])].filter((w) => w !== undefined) } : {}),
            always_grants: r.alwaysGrants !== false,
          });
          break;
        }
        case 'approval.resolved':
          system('approval_response', { request_id: event.id, decision: event.decision ?? null });
          break;
        case 'notice':
          system('notice', { level: event.level, kind: event.kind ?? 'other', text: escapeForDisplay(event.text) });
          break;
        case 'turn.end':
          if (event.status !== 'finished' && event.detail) system('turn_detail', { status: event.status, detail: escapeForDisplay(event.detail) });
          break;
        default:
          break;
      }
    },
    result(outcome, e, status, exitStatus, error) {
      engine = e ?? engine;
      const json = jsonResult(outcome, e, status, error);
      sessionId = (json['session_id'] as string | null) ?? sessionId;
      const usage = (json['usage'] ?? {}) as Record<string, number>;
      emit({
        type: 'result',
        subtype: SUBTYPES[status],
        is_error: status !== 'finished',
        duration_ms: Date.now() - started,
        duration_api_ms: apiMs,
        num_turns: turnRequests,
        total_cost_usd: json['cost'] ?? null,
        ...json,
        usage: { ...usage, ...usageFields({ input: usage['input'] ?? 0, cacheRead: usage['cache_read'] ?? 0, cacheWrite: usage['cache_write'] ?? 0, output: usage['output'] ?? 0 }) },
        exit_status: exitStatus,
      });
    },
  };
}
