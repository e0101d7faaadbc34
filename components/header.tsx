import { memo } from 'react';
import { Box } from 'ink';
import { useEngineState } from '../hooks/use-engine-state.js';
import type { SessionState } from '../src/agent/state.js';
import { headerLines } from './header-lines.js';
import { LineView } from './text/line-view.js';

export { HEADER_ROWS, shortenPath } from './header-lines.js';

const selectPreset = (s: SessionState) => s.preset;
const selectThinking = (s: SessionState) => s.thinking;
const selectEffort = (s: SessionState) => s.thinkingEffort;
const selectRoot = (s: SessionState) => s.projectRoot;
const selectPerms = (s: SessionState) => s.permissionSummary;

/** The preset and thinking on the first row; the project root and permissions on the second. */
export const Header = memo(function Header({ width, rows }: { readonly width: number; readonly rows: number }) {
  const preset = useEngineState(selectPreset);
  const thinking = useEngineState(selectThinking);
  const thinkingEffort = useEngineState(selectEffort);
  const projectRoot = useEngineState(selectRoot);
  const permissionSummary = useEngineState(selectPerms);
  const lines = headerLines(
    { preset, thinking, ...(thinkingEffort ? { thinkingEffort } : {}), projectRoot, permissionSummary },
    width,
    rows,
  );
  return (
    <Box flexDirection="column" height={lines.length} width={width} overflowY="hidden">
      {lines.map((line, i) => (
        <LineView key={i} line={line} />
      ))}
    </Box>
  );
});
