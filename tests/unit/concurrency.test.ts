// The proxy's limits and the app's own caps add up: live streams and bodies still arriving, each at
// its cap, leave room under fly.toml's hard limit for ordinary requests, as docs/deployment.md says.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { MAX_STREAMS_PER_MACHINE } from "../../app/services/live-events.server";
import { ARRIVAL_RULES } from "../../server/request-arrival";

const ROOT = resolve(__dirname, "../..");
/** Requests in flight that neither streams nor slow senders may take. */
const ORDINARY_ROOM = 100;

/** The [http_service.concurrency] table of fly.toml. */
function proxyConcurrency() {
  const toml = readFileSync(resolve(ROOT, "fly.toml"), "utf8");
  const table = toml.split(/^\s*\[http_service\.concurrency\]\s*$/m)[1]?.split(/^\s*\[/m)[0] ?? "";
  const value = (key: string) => table.match(new RegExp(`^\\s*${key}\\s*=\\s*"?([^"\\s]+)"?`, "m"))?.[1];
  return { type: value("type"), soft: Number(value("soft_limit")), hard: Number(value("hard_limit")) };
}

describe("concurrency arithmetic", () => {
  const proxy = proxyConcurrency();
  const streams = MAX_STREAMS_PER_MACHINE;
  const bodies = ARRIVAL_RULES.total;

  test("the proxy counts requests, so a stream and a slow body each take one place", () => {
    expect(proxy.type).toBe("requests");
  });

  test("streams and bodies at their caps leave room for ordinary requests under the hard limit", () => {
    expect(proxy.hard - streams - bodies).toBeGreaterThanOrEqual(ORDINARY_ROOM);
    expect(proxy.soft).toBeGreaterThanOrEqual(streams + bodies);
    expect(proxy.soft).toBeLessThan(proxy.hard);
  });

  test("docs/deployment.md states the same sum", () => {
    const doc = readFileSync(resolve(ROOT, "docs/deployment.md"), "utf8").replace(/\s+/g, " ");
    expect(doc).toContain(
      `\`hard_limit\` ${proxy.hard} = ${streams} streams + ${bodies} bodies still arriving + ${proxy.hard - streams - bodies} for everything else`,
    );
    expect(doc).toContain(`\`soft_limit\` ${proxy.soft} is the two caps together`);
  });
});
