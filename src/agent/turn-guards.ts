/**
 * What a turn checks between two requests, and asks about when it must: a budget reached (go on
 * with it raised once, or stop), and an automatic summary about to be made (now, or later once).
 * The full screen answers the questions; without it (one-shot, the protocol modes) a budget stops
 * the turn and a summary goes ahead, each with a notice saying so.
 */
import type { Preset } from '../config/types.js';
import { formatCount } from '../context/format-count.js';
import { describeCompaction, expectedSummaryTokens } from '../context/resend-cost.js';
import type { ConfirmSummary, SummaryDecision } from '../context/types.js';
import { budgetStopDetail, raisedLabel, type BudgetHit, type BudgetTracker } from './budget.js';
import type { EngineEvent } from './events.js';
import type { QuestionInput } from './questions.js';

export interface TurnGuardDeps {
  readonly budget: BudgetTracker;
  readonly preset: () => Preset;
  readonly sessionCost: () => number | null;
  readonly ask: (question: QuestionInput) => Promise<string>;
  /** True when nothing answers questions (no full screen): their fallback is taken. */
  readonly headless: boolean;
  readonly dispatch: (event: EngineEvent) => void;
  readonly newId: (prefix: string) => string;
}

export function budgetQuestion(hit: BudgetHit): QuestionInput {
  return {
    kind: 'budget',
    title: 'Budget reached',
    lines: [
      hit.message,
      `Continue raises it ${raisedLabel(hit)}; stop ends the turn here (the conversation is kept, and "continue" picks it up).`,
    ],
    choices: [
      { key: 'c', label: `continue (${raisedLabel(hit)})`, value: 'continue' },
      { key: 's', label: 'stop the turn', value: 'stop' },
    ],
    fallback: 'stop',
    cancel: 'stop',
  };
}

export function compactionQuestion(lines: readonly string[], postponeUntil: number): QuestionInput {
  return {
    kind: 'compaction',
    title: 'Summary ahead',
    lines,
    choices: [
      { key: 's', label: 'summarize now', value: 'now' },
      { key: 'l', label: `later (once: it happens at ${formatCount(postponeUntil)} tokens)`, value: 'later' },
    ],
    fallback: 'now',
    cancel: 'later',
  };
}

export interface TurnGuards {
  /** Before each request: undefined to go on, or why the turn stops. */
  beforeStep(): Promise<string | undefined>;
  readonly confirmSummary: ConfirmSummary;
  /** Publishes spend against the budgets (when any is set). */
  publishBudget(): void;
}

export function createTurnGuards(deps: TurnGuardDeps): TurnGuards {
  const notice = (text: string, level: 'info' | 'warning', kind?: 'summary'): void =>
    deps.dispatch({ type: 'notice', blockId: deps.newId('notice'), level, text, ...(kind ? { kind } : {}) });
  const publishBudget = (): void => {
    const gauge = deps.budget.gauge(deps.sessionCost());
    if (gauge) deps.dispatch({ type: 'budget', gauge });
  };

  return {
    publishBudget,
    async beforeStep() {
      // Several budgets can be reached at once: each is asked about in turn.
      for (let hit = deps.budget.check(deps.sessionCost()); hit; hit = deps.budget.check(deps.sessionCost())) {
        const answer = await deps.ask(budgetQuestion(hit));
        if (answer !== 'continue') return budgetStopDetail(hit);
        deps.budget.raise(hit);
        notice(`Going on: ${hit.name} raised ${raisedLabel(hit)}.`, 'info');
        publishBudget();
      }
      return undefined;
    },
    async confirmSummary(plan): Promise<SummaryDecision> {
      const preset = deps.preset();
      const lines = describeCompaction(plan, preset, expectedSummaryTokens(plan.olderTokens, preset.maxTokens));
      if (deps.headless || plan.postponeUntil === undefined) {
        const why = deps.headless ? ' (nothing is asked outside the full screen)' : plan.wasPostponed ? ': the context reached the point it was postponed to' : '';
        notice(`${lines.join(' ')} Summarizing now${why}.`, 'info', 'summary');
        return 'now';
      }
      notice(lines.join(' '), 'info', 'summary');
      const answer = await deps.ask(compactionQuestion(lines, plan.postponeUntil));
      return answer === 'later' ? 'later' : 'now';
    },
  };
}
