/**
 * Pending approvals, keyed by id and held by one engine (never a module global). `request`
 * publishes the request and returns a promise that `answer` settles.
 */
import { answerOf, type ApprovalDecision, type ApprovalReply, type ApprovalRequest } from '../policy/types.js';
import type { EngineEvent } from './events.js';

export interface ApprovalQueue {
  /**
   * Publishes the request and waits for `answer`. An `answerer` (one-shot's prompt) is asked too;
   * whichever settles first wins.
   */
  request(request: ApprovalRequest, answerer?: (request: ApprovalRequest) => Promise<ApprovalReply>): Promise<ApprovalReply>;
  /** `note`: what the user typed for the model with a no. */
  answer(id: string, decision: ApprovalDecision, note?: string): boolean;
  /** Settles every pending request (an interrupt stops the turn: nothing is approved). */
  cancelAll(decision: ApprovalDecision): void;
  pending(): readonly ApprovalRequest[];
}

export function createApprovalQueue(dispatch: (event: EngineEvent) => void): ApprovalQueue {
  const waiting = new Map<string, { request: ApprovalRequest; settle: (a: ApprovalReply) => void }>();
  let counter = 0;

  const answer = (id: string, decision: ApprovalDecision, note?: string): boolean => {
    const entry = waiting.get(id);
    if (!entry) return false;
    waiting.delete(id);
    dispatch({ type: 'approval.resolved', id, decision });
    const trimmed = note?.trim();
    // The plain decision unless there are words with it: what tools compare against.
    entry.settle(trimmed ? { decision, note: trimmed } : decision);
    return true;
  };

  return {
    request(request, answerer) {
      // Ids must be unique among pending requests; a tool that reuses one gets a fresh id.
      const id = request.id && !waiting.has(request.id) ? request.id : `approval-${++counter}`;
      const withId = id === request.id ? request : { ...request, id };
      const decided = new Promise<ApprovalReply>((settle) => {
        waiting.set(id, { request: withId, settle });
        dispatch({ type: 'approval.request', request: withId });
      });
      if (answerer) {
        answerer(withId).then(
          (reply) => {
            const a = answerOf(reply);
            answer(id, a.decision, a.note);
          },
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
