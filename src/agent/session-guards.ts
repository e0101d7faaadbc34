/**
 * The engine's questions and budgets in one place: the queue the view answers (or the fallback
 * taken where no view is), the budget tracker that hears every billed request, and the turn
 * guards built on both. The engine holds one for its life: budgets are the user's settings, not
 * the conversation's, so /clear or a resumed session does not reset a raised one.
 */
import type { Usage } from '../providers/types.js';
import { createBudgetTracker, unpricedBudgetWarning } from './budget.js';
import type { EngineEvent } from './events.js';
import { createQuestionQueue, type QuestionQueue } from './questions.js';
import type { SessionRuntime } from './runtime.js';
import type { EngineQuestion } from './state.js';
import { createTurnGuards, type TurnGuards } from './turn-guards.js';

export interface SessionGuards {
  readonly questions: QuestionQueue;
  readonly turn: TurnGuards;
  /** True when any budget is set: only then is each step checked. */
  readonly budgetActive: boolean;
  /** A turn starts: its budgets go back to the configured ones. */
  startTurn(): void;
  /** Every request billed, a summary's included, with its cost (null: no prices). */
  billed(usage: Usage, cost: number | null): void;
  /** Why the dollar budgets cannot be checked with the preset in use; undefined when they can. */
  priceWarning(): string | undefined;
}

export function createSessionGuards(opts: {
  readonly runtime: () => SessionRuntime;
  readonly dispatch: (event: EngineEvent) => void;
  readonly newId: (prefix: string) => string;
  /** Answers questions where no view does (one-shot, the protocol modes): their fallback. */
  readonly answerQuestion?: (question: EngineQuestion) => string;
}): SessionGuards {
  const budget = createBudgetTracker(opts.runtime().config.budgets);
  const questions = createQuestionQueue(opts.dispatch, opts.answerQuestion);
  const turn = createTurnGuards({
    budget,
    preset: () => opts.runtime().preset,
    // Nothing priced yet reads as nothing spent, where the preset has prices; without them, unknown.
    sessionCost: () => opts.runtime().session.cost ?? (opts.runtime().preset.prices ? 0 : null),
    ask: (q) => questions.ask(q),
    headless: opts.answerQuestion !== undefined,
    dispatch: opts.dispatch,
    newId: opts.newId,
  });
  return {
    questions,
    turn,
    budgetActive: budget.active,
    startTurn() {
      budget.startTurn();
      turn.publishBudget();
    },
    billed(usage, cost) {
      const rt = opts.runtime();
      // A request whose server reported no usage counts the estimate of what it sent.
      budget.record(usage, cost, usage.unreported ? rt.context.gauge?.(rt.session.history, rt.system).usedTokens : undefined);
      turn.publishBudget();
    },
    priceWarning() {
      const rt = opts.runtime();
      return unpricedBudgetWarning(rt.config.budgets, rt.preset.name, rt.preset.prices !== undefined);
    },
  };
}
