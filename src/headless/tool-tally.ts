/**
 * The tool calls of a one-shot turn that did not do what was asked, for --json and the exit
 * status: denied calls (by the policy, or because nothing could be approved without a terminal)
 * and failed ones. A turn that tried to change something and had every such call denied did not do
 * its job, however politely the model's final answer says so.
 */
import type { EngineEvent } from '../agent/events.js';
import type { ToolCallStatus } from '../agent/state.js';

/** Tools whose calls change the project (or may: a command). */
const CHANGING = new Set(['write_file', 'edit_file', 'delete_file', 'bash']);

export interface UnsuccessfulCall {
  readonly tool: string;
  /** The call as the transcript names it: "write_file notes.txt". */
  readonly call: string;
  readonly status: Extract<ToolCallStatus, 'denied' | 'error'>;
  readonly message: string;
}

export function createToolTally() {
  const started = new Map<string, { tool: string; call: string }>();
  const unsuccessful: UnsuccessfulCall[] = [];
  let changes = 0;
  let changesDenied = 0;
  return {
    onEvent(event: EngineEvent): void {
      if (event.type === 'tool.start') started.set(event.blockId, { tool: event.name, call: event.title });
      if (event.type !== 'tool.end') return;
      const call = started.get(event.blockId);
      if (!call) return;
      if (CHANGING.has(call.tool)) {
        changes++;
        if (event.status === 'denied') changesDenied++;
      }
      if (event.status === 'denied' || event.status === 'error') unsuccessful.push({ ...call, status: event.status, message: event.summary });
    },
    get unsuccessful(): readonly UnsuccessfulCall[] {
      return unsuccessful;
    },
    get denied(): number {
      return unsuccessful.filter((c) => c.status === 'denied').length;
    },
    /** Why the turn is not finished though the model stopped: every change it tried was denied. */
    allChangesDenied(): string | undefined {
      if (changes === 0 || changesDenied < changes) return undefined;
      const names = unsuccessful.filter((c) => c.status === 'denied' && CHANGING.has(c.tool)).map((c) => c.call);
      const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ', …' : '');
      return `Every change the model tried was denied (${changesDenied} call${changesDenied === 1 ? '' : 's'}: ${shown}); nothing was changed.`;
    },
  };
}

export type ToolTally = ReturnType<typeof createToolTally>;
