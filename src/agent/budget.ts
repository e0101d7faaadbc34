/**
 * Budgets: max_cost_per_turn, max_cost_per_session and max_tokens_per_turn, checked between two
 * requests of a turn. Dollars are the session's own cost figures — every request priced by the
 * preset it went to, so a /model switch never prices one model's tokens at another's rates.
 *
 * Tokens count what each request was billed at full rate: fresh input, cache writes and output.
 * Cache reads are not counted: every request re-reads the conversation from the cache, so a cap
 * that counted them would measure the conversation's length, not the turn's work. A server with
 * no cache bills the whole prompt as fresh input every time, and then all of it counts. A request
 * whose server reported no usage counts the estimate of the prompt it sent.
 */
import type { Budgets } from '../config/types.js';
import { formatCount, formatDollars } from '../context/format-count.js';
import type { Usage } from '../providers/types.js';
import type { BudgetGauge } from './state.js';

export type BudgetName = 'max_cost_per_turn' | 'max_cost_per_session' | 'max_tokens_per_turn';

export interface BudgetHit {
  readonly name: BudgetName;
  readonly spent: number;
  readonly limit: number;
  /** The limit after continuing once: one more budget's worth. */
  readonly raisedTo: number;
  /** "This turn has spent $0.52, reaching max_cost_per_turn ($0.50)." */
  readonly message: string;
}

/** The tokens a request counts against max_tokens_per_turn (see above). */
export function billedTokens(usage: Usage): number {
  return usage.input + usage.cacheWrite + usage.output;
}

export const TOKENS_COUNTED = 'fresh input, cache writes and output; cache reads are not counted';

const amount = (name: BudgetName, n: number): string => (name === 'max_tokens_per_turn' ? formatCount(n) : formatDollars(n));

function hitMessage(name: BudgetName, spent: number, limit: number): string {
  switch (name) {
    case 'max_cost_per_turn':
      return `This turn has spent ${formatDollars(spent)}, reaching max_cost_per_turn (${formatDollars(limit)}).`;
    case 'max_cost_per_session':
      return `This session has spent ${formatDollars(spent)}, reaching max_cost_per_session (${formatDollars(limit)}).`;
    case 'max_tokens_per_turn':
      return `This turn was billed ${formatCount(spent)} tokens (${TOKENS_COUNTED}), reaching max_tokens_per_turn (${formatCount(limit)}).`;
  }
}

/** What the limit becomes after "continue", as the question offers it. */
export function raisedLabel(hit: BudgetHit): string {
  const scope = hit.name === 'max_cost_per_session' ? 'for this session' : 'for this turn';
  return `up to ${amount(hit.name, hit.raisedTo)}${hit.name === 'max_tokens_per_turn' ? ' tokens' : ''} ${scope}`;
}

/** The turn's outcome detail when it stopped at a budget. */
export function budgetStopDetail(hit: BudgetHit): string {
  const next =
    hit.name === 'max_cost_per_session'
      ? 'Raise max_cost_per_session to go on in this session.'
      : 'Send "continue" to pick up where it stopped.';
  return `Stopped at a budget: ${hit.message} ${next}`;
}

export interface BudgetTracker {
  /** A turn starts: its spend goes back to zero and its limits to the configured ones. */
  startTurn(): void;
  /** A request's usage and cost (null: unknown); `estimate` stands in for unreported usage. */
  record(usage: Usage, cost: number | null, estimate?: number): void;
  /** The first budget reached, given the session's cost; undefined while all are under. */
  check(sessionCost: number | null): BudgetHit | undefined;
  /** "Continue": that budget allows one more budget's worth. */
  raise(hit: BudgetHit): void;
  /** Spend against each budget that is set; undefined when none is. */
  gauge(sessionCost: number | null): BudgetGauge | undefined;
  /** True when any budget is set. */
  readonly active: boolean;
}

export function createBudgetTracker(budgets: Budgets = {}): BudgetTracker {
  let turnCost = 0;
  let turnCostKnown = true;
  let turnTokens = 0;
  let turnCostLimit = budgets.costPerTurn;
  let turnTokenLimit = budgets.tokensPerTurn;
  // Raised for the rest of this run only: the configured value holds again next time.
  let sessionCostLimit = budgets.costPerSession;
  const step: Record<BudgetName, number | undefined> = {
    max_cost_per_turn: budgets.costPerTurn,
    max_cost_per_session: budgets.costPerSession,
    max_tokens_per_turn: budgets.tokensPerTurn,
  };

  const hit = (name: BudgetName, spent: number, limit: number): BudgetHit => ({
    name,
    spent,
    limit,
    raisedTo: limit + (step[name] ?? limit),
    message: hitMessage(name, spent, limit),
  });

  return {
    active: budgets.costPerTurn !== undefined || budgets.costPerSession !== undefined || budgets.tokensPerTurn !== undefined,
    startTurn() {
      turnCost = 0;
      turnCostKnown = true;
      turnTokens = 0;
      turnCostLimit = budgets.costPerTurn;
      turnTokenLimit = budgets.tokensPerTurn;
    },
    record(usage, cost, estimate) {
      turnTokens += usage.unreported ? (estimate ?? 0) : billedTokens(usage);
      if (cost === null) turnCostKnown = false;
      else turnCost += cost;
    },
    check(sessionCost) {
      if (turnTokenLimit !== undefined && turnTokens >= turnTokenLimit) return hit('max_tokens_per_turn', turnTokens, turnTokenLimit);
      // A cost nobody knows (no prices) cannot reach a dollar budget; the session start said so.
      if (turnCostLimit !== undefined && turnCost > 0 && turnCost >= turnCostLimit) return hit('max_cost_per_turn', turnCost, turnCostLimit);
      if (sessionCostLimit !== undefined && sessionCost !== null && sessionCost >= sessionCostLimit) {
        return hit('max_cost_per_session', sessionCost, sessionCostLimit);
      }
      return undefined;
    },
    raise(h) {
      if (h.name === 'max_cost_per_turn') turnCostLimit = h.raisedTo;
      else if (h.name === 'max_tokens_per_turn') turnTokenLimit = h.raisedTo;
      else sessionCostLimit = h.raisedTo;
    },
    gauge(sessionCost) {
      const g: BudgetGauge = {
        ...(turnCostLimit !== undefined ? { turnCost: { spent: turnCostKnown || turnCost > 0 ? turnCost : null, limit: turnCostLimit } } : {}),
        ...(sessionCostLimit !== undefined ? { sessionCost: { spent: sessionCost, limit: sessionCostLimit } } : {}),
        ...(turnTokenLimit !== undefined ? { turnTokens: { spent: turnTokens, limit: turnTokenLimit } } : {}),
      };
      return Object.keys(g).length ? g : undefined;
    },
  };
}

/** The warning a session with dollar budgets but no prices starts with. */
export function unpricedBudgetWarning(budgets: Budgets | undefined, presetName: string, priced: boolean): string | undefined {
  if (priced || !budgets) return undefined;
  const set = [
    budgets.costPerTurn !== undefined ? 'max_cost_per_turn' : '',
    budgets.costPerSession !== undefined ? 'max_cost_per_session' : '',
  ].filter(Boolean);
  if (!set.length) return undefined;
  return (
    `${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set, but preset ${presetName} has no prices, so dollar budgets cannot be checked. ` +
    'Give the preset price_input and price_output (its provider\'s own figures), or use max_tokens_per_turn, which needs no prices.'
  );
}
