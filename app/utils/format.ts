// Display formats shared by pages: en-US short dates (times are stored in UTC).
const shortDate = new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeZone: "UTC" });
const shortDateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeStyle: "short", timeZone: "UTC" });

export function formatDate(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  return shortDate.format(new Date(value));
}

export function formatDateTime(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  return `${shortDateTime.format(new Date(value))} UTC`;
}

/** '9+' above nine, as the notification badge shows. */
export function badgeCount(n: number): string {
  return n > 9 ? "9+" : String(n);
}

/** 'printer_owner' → 'printer owner' */
export function humanize(value: string): string {
  return value.replaceAll("_", " ");
}

/** 135 → '2h 15m' */
export function formatMinutes(minutes: number | null | undefined): string {
  if (!minutes || minutes <= 0) return "0m";
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return h > 0 ? `${h}h ${m}m` : `${m}m`;
}
