// Money helpers. Every amount in the app is an integer number of US cents; these convert at the edges.

/**
 * 1234 → "$12.34", -50 → "-$0.50", 123456 → "$1,234.56": US dollars as en-US writes them (Intl.NumberFormat's
 * currency style), put together from the digits. Pages show many amounts, and Intl's formatter took a microsecond
 * each (decision 036); the unit test holds the two to the same text.
 */
export function formatCents(cents: number): string {
  if (!Number.isFinite(cents)) return "";
  // Rounding keeps a stray fractional value from printing as "$0.125"; callers should pass integers.
  const whole = Math.round(cents);
  const abs = Math.abs(whole);
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
  const text = `$${dollars}.${String(abs % 100).padStart(2, "0")}`;
  return whole < 0 ? `-${text}` : text;
}

/** 150 → "1.50", -5 → "-0.05": a plain decimal string for form fields and provider payloads. */
export function centsToDollarString(cents: number): string {
  if (!Number.isFinite(cents)) return "";
  const whole = Math.round(cents);
  const abs = Math.abs(whole);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
  return whole < 0 ? `-${text}` : text;
}

const DECIMAL = /^(\d*)(?:\.(\d*))?$/;

/** Decimal text × 10^places as an integer, half away from zero, read digit by digit so "1.005" → 101 exactly; null if not a number. */
export function decimalToScaledInt(value: string | number, places: number): number | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === "string") {
    text = value;
  } else {
    return null;
  }
  // Users type "$1.50", "- $2", "1,000"; strip the decoration, keep the sign.
  text = text.trim().replace(/\s+/g, "");
  let negative = false;
  if (text.startsWith("-")) {
    negative = true;
    text = text.slice(1);
  }
  if (text.startsWith("$")) text = text.slice(1);
  if (text.startsWith("-")) {
    if (negative) return null;
    negative = true;
    text = text.slice(1);
  }
  // Commas are only accepted as thousands separators, so "1,5" is rejected instead of read as 15.
  if (text.includes(",")) {
    if (!/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) return null;
    text = text.replace(/,/g, "");
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const intPart = match[1] ?? "";
  const fracPart = match[2] ?? "";
  if (intPart === "" && fracPart === "") return null;
  const kept = fracPart.slice(0, places).padEnd(places, "0");
  const nextDigit = fracPart.charAt(places);
  let scaled = Number((intPart || "0") + kept);
  if (nextDigit !== "" && nextDigit >= "5") scaled += 1;
  if (!Number.isSafeInteger(scaled)) return null;
  return negative && scaled !== 0 ? -scaled : scaled;
}

/** "$1.50" → 150, "0.1" → 10, 2 → 200, "abc" → null. Half a cent or more rounds up. */
export function dollarsToCents(value: string | number): number | null {
  return decimalToScaledInt(value, 2);
}
