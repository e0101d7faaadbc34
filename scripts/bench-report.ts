/**
 * The line format scripts/bench-all.ts gathers into its table: one `BENCH {json}` line per figure.
 * Scripts that do not use it still run; bench-all then picks figures out of their text.
 */
export interface BenchFigure {
  readonly figure: string;
  readonly median: number;
  readonly unit: string;
  /** e.g. "< 80 ms over bare node" */
  readonly target?: string;
  readonly met?: boolean;
}

export function reportFigure(figure: BenchFigure): void {
  process.stdout.write(`BENCH ${JSON.stringify(figure)}\n`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
