/**
 * 1234567 as "1,234,567", rounded. Not toLocaleString: its first call loads ICU's locale data,
 * tens of milliseconds that a status line or a panel should not cost.
 */
export function formatCount(n: number): string {
  const rounded = Math.round(n);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+$)/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}

/** Dollars with the precision a small amount needs: $0.0042, $0.15, $12.40. */
export function formatDollars(amount: number): string {
  if (amount > 0 && amount < 0.01) return `$${amount.toFixed(4)}`;
  return `$${amount.toFixed(2)}`;
}
