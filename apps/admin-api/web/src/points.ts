// How the dashboard prints points: the admin API's exact decimal text, never converted to a number.

/**
 * A decimal string with thousands separators in its whole part and every digit of its fraction (a
 * currency may have 18 places); the text is only regrouped, never parsed into a JS number, so it
 * shows the digits the ledger holds.
 */
export function formatPoints(value: string): string {
  const [int, frac] = value.split(".");
  const sign = int?.startsWith("-") ? "-" : "";
  const digits = (int ?? "0").replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${digits}${frac ? `.${frac}` : ""}`;
}
