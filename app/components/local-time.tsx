import { useEffect, useState } from "react";
import { useRouteLoaderData } from "@remix-run/react";
import { formatDate, formatDateTime } from "~/domain/format";

/** The zone the server rendered in (the signed-in user's, from their ZIP code; UTC for visitors). */
export function useServerTimeZone(): string {
  const root = useRouteLoaderData("root") as { timeZone?: string } | undefined;
  return root?.timeZone ?? "UTC";
}

function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * A time shown in the viewer's zone: the server's text first (so the page reads the same
 * without JavaScript), then the browser's own zone once hydrated.
 */
export function LocalTime({
  value,
  dateOnly = false,
  className,
}: {
  value: Date | string | number | null | undefined;
  dateOnly?: boolean;
  className?: string;
}) {
  const serverZone = useServerTimeZone();
  const [zone, setZone] = useState(serverZone);
  useEffect(() => {
    const own = browserTimeZone();
    if (own) setZone(own);
  }, []);
  if (value === null || value === undefined) return null;
  const iso = new Date(value).toISOString();
  return (
    <time dateTime={iso} className={className}>
      {dateOnly ? formatDate(value, zone) : formatDateTime(value, zone)}
    </time>
  );
}
