import { memo } from 'react';
import { Text } from 'ink';
import { visibleStyle } from './color-mode.js';
import type { StyledLine, TextStyle } from './styled-line.js';

/** Ink <Text> props for a style (its colours dropped under NO_COLOR). */
export function inkTextProps(given: TextStyle | undefined): Record<string, string | boolean> {
  if (given === undefined) return {};
  const style = visibleStyle(given);
  const out: Record<string, string | boolean> = {};
  if (style.color !== undefined) out['color'] = style.color;
  if (style.backgroundColor !== undefined) out['backgroundColor'] = style.backgroundColor;
  if (style.bold) out['bold'] = true;
  if (style.dim) out['dimColor'] = true;
  if (style.italic) out['italic'] = true;
  if (style.underline) out['underline'] = true;
  if (style.inverse) out['inverse'] = true;
  return out;
}

/** Ink <Box> border colour props for a style: none under NO_COLOR. */
export function borderColor(given: TextStyle): { borderColor?: string } {
  const color = visibleStyle(given).color;
  return color === undefined ? {} : { borderColor: color };
}

/** One row. Lines are immutable and cached, so memo skips rows that did not change. */
export const LineView = memo(function LineView({ line }: { readonly line: StyledLine }) {
  if (line.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end">
      {line.map((seg, i) => (
        <Text key={i} {...inkTextProps(seg.style)}>
          {seg.text}
        </Text>
      ))}
    </Text>
  );
});
