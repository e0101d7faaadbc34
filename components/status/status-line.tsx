import { memo, useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { useEngineState } from '../../hooks/use-engine-state.js';
import type { SessionState } from '../../src/agent/state.js';
import { formatCost, formatTokens, readMeter } from './context-meter.js';

const selectContext = (s: SessionState) => s.context;
const selectLastUsage = (s: SessionState) => s.lastUsage;
const selectCost = (s: SessionState) => s.sessionCost;
const selectBusy = (s: SessionState) => s.busy;
const selectIndexing = (s: SessionState) => s.indexing ?? null;

const METER_COLORS = { ok: 'green', warn: 'yellow', high: 'red' } as const;

/** The context meter: its own selector, so streaming text does not re-render it. */
export const ContextMeter = memo(function ContextMeter({ barWidth }: { readonly barWidth: number }) {
  const gauge = useEngineState(selectContext);
  const reading = readMeter(gauge, barWidth);
  return (
    <Text wrap="truncate-end">
      <Text color={METER_COLORS[reading.level]}>{reading.bar}</Text>
      <Text> {reading.label}</Text>
      <Text dimColor>
        {' '}({formatTokens(gauge.usedTokens)} tokens{gauge.measured ? '' : ', estimated'})
      </Text>
    </Text>
  );
});

const UsageFigures = memo(function UsageFigures() {
  const last = useEngineState(selectLastUsage);
  const cost = useEngineState(selectCost);
  const parts: string[] = [];
  if (last !== null) parts.push(`last ${formatTokens(last.input + last.cacheRead + last.cacheWrite)} in · ${formatTokens(last.output)} out`);
  if (cost !== null) parts.push(formatCost(cost));
  return <Text dimColor wrap="truncate-end">{parts.length > 0 ? ` · ${parts.join(' · ')}` : ''}</Text>;
});

/** The code map's index while it builds; gone once the map is ready. */
const IndexingProgress = memo(function IndexingProgress() {
  const indexing = useEngineState(selectIndexing);
  if (indexing === null) return null;
  return <Text dimColor> · indexing {indexing.done}/{indexing.total}</Text>;
});

/** Ticks once a second while a turn runs; nothing else re-renders for it. */
const BusyTimer = memo(function BusyTimer() {
  const busy = useEngineState(selectBusy);
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
  return <Text color="yellow"> · working {seconds}s (Ctrl+C stops)</Text>;
});

export function StatusLine({ width, hint }: { readonly width: number; readonly hint?: string }) {
  const barWidth = width >= 100 ? 20 : width >= 60 ? 10 : 5;
  return (
    <Box height={1} width={width} overflowY="hidden">
      <Text wrap="truncate-end">
        <ContextMeter barWidth={barWidth} />
        <UsageFigures />
        <IndexingProgress />
        <BusyTimer />
        {hint ? <Text color="cyan"> · {hint}</Text> : null}
      </Text>
    </Box>
  );
}
