/**
 * Pending approvals, keyed by id and held by one engine (never a module global). `request`
 * publishes the request and returns a promise that `answer` settles.
 */
import type { ApprovalDecision, ApprovalRequest } from '../policy/types.js';
import type { EngineEvent } from './events.js';

export interface ApprovalQueue {
  /**
   * Publishes the request and waits for `answer`. An `answerer` (one-shot's prompt) is asked too;
   * whichever settles first wins.
   */
  request(request: ApprovalRequest, answerer?: (request: ApprovalRequest) => Promise<ApprovalDecision>): Promise<ApprovalDecision>;
  answer(id: string, decision: ApprovalDecision): boolean;
  /** Settles every pending request (an interrupt stops the turn: nothing is approved). */
  cancelAll(decision: ApprovalDecision): void;
  pending(): readonly ApprovalRequest[];
}

export function createApprovalQueue(dispatch: (event: EngineEvent) => void): ApprovalQueue {
  const waiting = new Map<string, { request: ApprovalRequest; settle: (d: ApprovalDecision) => void }>();
  let counter = 0;

  const answer = (id: string, decision: ApprovalDecision): boolean => {
    const entry = waiting.get(id);
    if (!entry) return false;
    waiting.delete(id);
    dispatch({ type: 'approval.resolved', id, decision });
    entry.settle(decision);
    return true;
  };

  return {
    request(request, answerer) {
      // Ids must be unique among pending requests; a tool that reuses one gets a fresh id.
      const id = request.id && !waiting.has(request.id) ? request.id : `approval-${++counter}`;
      const withId = id === request.id ? request : { ...request, id };
      const decided = new Promise<ApprovalDecision>((settle) => {
        waiting.set(id, { request: withId, settle });
        dispatch({ type: 'approval.request', request: withId });
      });
      if (answerer) {
        answerer(withId).then(
          (decision) => answer(id, decision),
          () => answer(id, 'no'),
        );
      }
      return decided;
    },
    answer,
    cancelAll(decision) {
      for (const id of [...waiting.keys()]) answer(id, decision);
    },
    pending: () => [...waiting.values()].map((e) => e.request),
  };
}
