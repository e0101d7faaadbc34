/**
 * What the header says, as styled rows. Pure: the Header component renders these, and so does the
 * early first frame (first-frame.ts), which must match it row for row.
 */
import type { SessionState } from '../src/agent/state.js';
import type { StyledLine } from './text/styled-line.js';
import { theme } from './theme.js';

export const HEADER_ROWS = 2;

export type HeaderFacts = Pick<SessionState, 'preset' | 'thinking' | 'thinkingEffort' | 'projectRoot' | 'permissionSummary'>;

/** Shortens a long path from the left, keeping its end (the part that tells projects apart). */
export function shortenPath(path: string, max: number): string {
  if (path.length <= max) return path;
  return `…${path.slice(path.length - Math.max(1, max - 1))}`;
}

/** The header's rows, `rows` of them (1 or 2): the preset line first, then root and permissions. */
export function headerLines(facts: HeaderFacts, width: number, rows: number): StyledLine[] {
  const { preset, thinking, thinkingEffort } = facts;
  const first: StyledLine = [
    { text: 'lindwyrm', style: theme.brand },
    { text: `  ${preset.name}` },
    { text: ` (${preset.format}, ${preset.model})`, style: theme.dim },
    { text: `  thinking ${thinking ? 'on' : 'off'}` },
    ...(thinking && thinkingEffort ? [{ text: ` · ${thinkingEffort}`, style: theme.dim }] : []),
  ];
  const second: StyledLine = [
    // The path gives way first: what is in force (the grants above all) must stay readable.
    { text: `${shortenPath(facts.projectRoot, Math.max(10, Math.min(Math.floor(width / 2), width - facts.permissionSummary.length - 2)))}  ${facts.permissionSummary}`, style: theme.dim },
  ];
  return [first, second].slice(0, Math.max(0, Math.min(HEADER_ROWS, rows)));
}
