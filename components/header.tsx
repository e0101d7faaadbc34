import { memo } from 'react';
import { Box, Text } from 'ink';
import { useEngineState } from '../hooks/use-engine-state.js';
import type { SessionState } from '../src/agent/state.js';

const selectPreset = (s: SessionState) => s.preset;
const selectThinking = (s: SessionState) => s.thinking;
const selectEffort = (s: SessionState) => s.thinkingEffort;
const selectRoot = (s: SessionState) => s.projectRoot;
const selectPerms = (s: SessionState) => s.permissionSummary;

export const HEADER_ROWS = 2;

/** Shortens a long path from the left, keeping its end (the part that tells projects apart). */
export function shortenPath(path: string, max: number): string {
  if (path.length <= max) return path;
  return `…${path.slice(path.length - Math.max(1, max - 1))}`;
}

export const Header = memo(function Header({ width }: { readonly width: number }) {
  const preset = useEngineState(selectPreset);
  const thinking = useEngineState(selectThinking);
  const effort = useEngineState(selectEffort);
  const root = useEngineState(selectRoot);
  const perms = useEngineState(selectPerms);
  return (
    <Box flexDirection="column" height={HEADER_ROWS} width={width} overflowY="hidden">
      <Text wrap="truncate-end">
        <Text bold color="magentaBright">lindwyrm</Text>
        <Text>  {preset.name}</Text>
        <Text dimColor> ({preset.format}, {preset.model})</Text>
        <Text>  thinking {thinking ? 'on' : 'off'}</Text>
        {thinking && effort ? <Text dimColor> · {effort}</Text> : null}
      </Text>
      <Text wrap="truncate-end" dimColor>
        {shortenPath(root, Math.max(10, Math.floor(width / 2)))}  {perms}
      </Text>
    </Box>
  );
});
