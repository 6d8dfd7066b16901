// Display formats shared by pages: en-US short dates, in the viewer's time zone (times are
// stored in UTC). Every call names its zone; pages show times through <LocalTime>, which
// passes the browser's zone or the server's. A missing or unknown zone shows UTC, labelled.
// Making an Intl.DateTimeFormat costs far more than using one (it was a tenth of a signed-in page's render):
// the formats are made once per zone and kept. Only zones Intl accepts are kept, and at most MAX_KEPT of them.
const MAX_KEPT = 1000;
const formats = new Map<string, Intl.DateTimeFormat>();

function keptFormat(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", options);
    if (formats.size >= MAX_KEPT) formats.clear();
    formats.set(key, format);
  }
  return format;
}

// The same instant in the same zone reads the same on every page: each text is made once (the zone's name
// takes a formatToParts per call), and at most MAX_TEXTS are kept.
const MAX_TEXTS = 5000;
const texts = new Map<string, string>();

function keptText(key: string, make: () => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = make();
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(key, text);
  }
  return text;
}

function validZone(zone: string | null | undefined): string {
  if (!zone) return "UTC";
  try {
    keptFormat(`zone:${zone}`, { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

/** "1/1/26" in the given zone; a date in UTC says so ("1/2/26 UTC"). */
export function formatDate(value: Date | string | number | null | undefined, zone: string | null): string {
  if (value === null || value === undefined) return "";
  const timeZone = validZone(zone);
  const date = new Date(value);
  return keptText(`date:${timeZone}:${date.getTime()}`, () => {
    const text = keptFormat(`date:${timeZone}`, { dateStyle: "short", timeZone }).format(date);
    return timeZone === "UTC" ? `${text} UTC` : text;
  });
}

/** "1/1/26, 11:00 AM MST": date, time and the zone's short name. */
export function formatDateTime(value: Date | string | number | null | undefined, zone: string | null): string {
  if (value === null || value === undefined) return "";
  const timeZone = validZone(zone);
  const date = new Date(value);
  return keptText(`datetime:${timeZone}:${date.getTime()}`, () => {
    const text = keptFormat(`datetime:${timeZone}`, { dateStyle: "short", timeStyle: "short", timeZone }).format(date);
    const name =
      keptFormat(`name:${timeZone}`, { timeZone, timeZoneName: "short" })
        .formatToParts(date)
        .find((p) => p.type === "timeZoneName")?.value ?? timeZone;
    return `${text} ${name}`;
  });
}

// made once: toLocaleString makes a NumberFormat on every call, which showed in every model list's render
const NUMBER = new Intl.NumberFormat("en-US");

/** 12345 → "12,345", 2.25 → "2.25": a number as the pages show it. */
export function formatNumber(n: number): string {
  return NUMBER.format(n);
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
