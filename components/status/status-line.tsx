import { memo, useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { useEngineState } from '../../hooks/use-engine-state.js';
import type { SessionState } from '../../src/agent/state.js';
import { inkTextProps } from '../text/line-view.js';
import { BUSY_STYLE, HINT_STYLE, NOT_SAVED_STYLE, NOT_SAVED_TEXT, STARTING_TEXT, budgetLevel, budgetText, busyText, indexingText, meterBarWidth, meterSegments, usageText } from './status-segments.js';

const selectContext = (s: SessionState) => s.context;
const selectLastUsage = (s: SessionState) => s.lastUsage;
const selectCost = (s: SessionState) => s.sessionCost;
const selectUnreported = (s: SessionState) => s.sessionUsage.unreported ?? 0;
const selectBusy = (s: SessionState) => s.busy;
const selectIndexing = (s: SessionState) => s.indexing ?? null;
const selectStarting = (s: SessionState) => s.starting === true;
const selectNotSaved = (s: SessionState) => (s.saveError ?? null) !== null;

/** A save that failed (a full disk) stays in view, never cut, until a later save works. */
const NotSaved = memo(function NotSaved() {
  const notSaved = useEngineState(selectNotSaved);
  return notSaved ? <Text {...inkTextProps(NOT_SAVED_STYLE)}>{NOT_SAVED_TEXT}</Text> : null;
});
const selectBudget = (s: SessionState) => s.budget;

/** The context meter: its own selector, so streaming text does not re-render it. */
export const ContextMeter = memo(function ContextMeter({ barWidth }: { readonly barWidth: number }) {
  const gauge = useEngineState(selectContext);
  return (
    <Text wrap="truncate-end">
      {meterSegments(gauge, barWidth).map((seg, i) => (
        <Text key={i} {...inkTextProps(seg.style)}>
          {seg.text}
        </Text>
      ))}
    </Text>
  );
});

const UsageFigures = memo(function UsageFigures() {
  const last = useEngineState(selectLastUsage);
  const cost = useEngineState(selectCost);
  const unreported = useEngineState(selectUnreported);
  return <Text dimColor wrap="truncate-end">{usageText(last, cost, unreported)}</Text>;
});

/** Spend against the budgets, when any is set. */
const BudgetFigures = memo(function BudgetFigures() {
  const budget = useEngineState(selectBudget);
  const text = budgetText(budget);
  if (!text) return null;
  return budgetLevel(budget) === 'warn' ? <Text color="yellow">{text}</Text> : <Text dimColor>{text}</Text>;
});

/** The code map's index while it builds; gone once the map is ready. */
const IndexingProgress = memo(function IndexingProgress() {
  const indexing = useEngineState(selectIndexing);
  if (indexing === null) return null;
  return <Text dimColor>{indexingText(indexing)}</Text>;
});

/** While the session assembles; part of the first frame, so it sits where the early paint put it. */
const StartingNote = memo(function StartingNote() {
  const starting = useEngineState(selectStarting);
  return starting ? <Text dimColor>{STARTING_TEXT}</Text> : null;
});

/** Ticks once a second while a turn runs; nothing else re-renders for it. */
const BusyTimer = memo(function BusyTimer() {
  const starting = useEngineState(selectStarting);
  const busy = useEngineState(selectBusy) && !starting;
  const [start, setStart] = useState(0);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!busy) return;
    setStart(Date.now());
    const timer = setInterval(() => setTick((t) => t + 1), 1000);
    return () => clearInterval(timer);
  }, [busy]);
  if (!busy) return null;
  const seconds = start === 0 ? 0 : Math.floor((Date.now() - start) / 1000);
  return <Text {...inkTextProps(BUSY_STYLE)} wrap="truncate-end">{busyText(seconds)}</Text>;
});

/**
 * The meter and figures shrink (cut with "…") before the budgets and the busy timer do: on an
 * 80-column screen the figures alone can fill the line, "working 12s (Ctrl+C stops)" is what says a
 * turn runs, and spend against a budget is what says it may pause.
 */
export function StatusLine({ width, hint }: { readonly width: number; readonly hint?: string }) {
  return (
    <Box height={1} width={width} overflowY="hidden">
      <Box flexShrink={1}>
        <Text wrap="truncate-end">
          <ContextMeter barWidth={meterBarWidth(width)} />
          <UsageFigures />
          <IndexingProgress />
          <StartingNote />
          {hint ? <Text {...inkTextProps(HINT_STYLE)}> · {hint}</Text> : null}
        </Text>
      </Box>
      {/* Spend against a budget is kept whole, like the timer: it is what says a turn may pause. */}
      <Box flexShrink={0}>
        <NotSaved />
        <BudgetFigures />
        <BusyTimer />
      </Box>
    </Box>
  );
}
