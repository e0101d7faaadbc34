import { memo, useContext, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Box, Text } from 'ink';
import type { TranscriptBlock } from '../../src/agent/state.js';
import { useHighlighterEpoch } from '../../hooks/use-highlighter-epoch.js';
import { encodeLine } from '../text/ansi.js';
import type { StyledLine } from '../text/styled-line.js';
import { RowOverlayContext } from '../terminal/row-overlay.js';
import { LineCache } from './line-cache.js';
import { codePointWidth, textWidth } from '../text/char-width.js';
import { anchorAt, sliceRows, type RowLayout, type ScrollMetrics, type ScrollState } from './transcript-window.js';

const MARKER = { inverse: true } as const;

/** Cut to `width` columns with an ellipsis, as Ink's truncate-end does. */
function truncateEnd(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = codePointWidth(ch.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

export interface TranscriptPaneProps {
  readonly blocks: readonly TranscriptBlock[];
  readonly width: number;
  readonly height: number;
  readonly markdown: boolean;
  readonly expandReasoning: boolean;
  /** No reasoning pane on this screen: the live thinking row carries the latest thought. */
  readonly inlineReasoning?: boolean;
  readonly scroll: ScrollState;
  /** Receives the window's metrics each render, for the scroll keys. */
  readonly metricsRef?: { current: ScrollMetrics };
  /** Screen row of the pane's first row: with a row overlay (runTui), its rows go there past Ink. */
  readonly screenTop?: number;
}

/**
 * The transcript as a windowed list: rows come from a per-block cache and only the visible
 * slice becomes Ink elements, so a long history costs nothing per frame.
 */
export const TranscriptPane = memo(function TranscriptPane(props: TranscriptPaneProps) {
  const { blocks, width, height, markdown, expandReasoning, inlineReasoning = false, scroll, metricsRef, screenTop } = props;
  const overlay = useContext(RowOverlayContext);
  const direct = overlay !== undefined && screenTop !== undefined;
  // Unmounted (a panel or a full-screen modal took its place): its rows must not be drawn. A layout
  // effect's cleanup runs in the commit, before Ink writes the frame.
  useLayoutEffect(() => (direct ? () => overlay.clear() : undefined), [overlay, direct]);
  const cache = useRef<LineCache | null>(null);
  cache.current ??= new LineCache();
  // Code laid out before its language's highlighter loaded is laid out again once it has.
  const epoch = useHighlighterEpoch();
  const { perBlock, layout } = useMemo(() => {
    const opts = { markdown, expandReasoning, inlineReasoning };
    const rows: (readonly StyledLine[])[] = [];
    for (const block of blocks) rows.push(cache.current!.rows(block, width, opts));
    const ids = blocks.map((b) => b.id);
    return { perBlock: rows, layout: { ids, width } satisfies RowLayout };
  }, [blocks, width, markdown, expandReasoning, inlineReasoning, epoch]);
  const firstId = blocks[0]?.id;
  useEffect(() => {
    // A reset session (clear, resume) starts with other blocks: drop rows nobody will ask for.
    cache.current!.retain(new Set(blocks.map((b) => b.id)));
  }, [firstId]);

  // A scrolled-back view keeps its content at the top across a resize: it is anchored on a block.
  const window = sliceRows(perBlock, height, scroll, layout);
  if (metricsRef) {
    metricsRef.current = { total: window.total, height, top: window.top, anchorAt: (top) => anchorAt(perBlock, layout, top) };
  }
  const rows = window.below > 0 ? window.rows.slice(0, Math.max(0, height - 1)) : window.rows;
  // The marker takes the window's last row: that row is below too.
  const hidden = window.below + (window.rows.length - rows.length);
  const note = ` ↓ ${hidden} more line${hidden === 1 ? '' : 's'} below · Ctrl+End follows the live output `;
  if (direct) {
    // Set while rendering, not in an effect: Ink writes the frame in the commit, before effects
    // run. Ink's frame leaves these rows out (see App); the frame writer inserts them.
    const encoded = rows.map(encodeLine);
    if (window.below > 0) encoded.push(encodeLine([{ text: truncateEnd(note, width), style: MARKER }]));
    overlay.set(screenTop, height, encoded);
    return null;
  }
  return (
    <Box flexDirection="column" height={height} width={width} overflowY="hidden">
      {rows.length > 0 ? <Text>{rows.map(encodeLine).join('\n')}</Text> : null}
      {window.below > 0 ? (
        <Text inverse wrap="truncate-end">
          {note}
        </Text>
      ) : null}
    </Box>
  );
});
