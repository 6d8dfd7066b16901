import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compare, processGroupCpuMs, SIGNED_IN_TARGET } from "./bench-load";

function fakeProc(processes: Array<{ pid: number; name: string; group: number; utime: number; stime: number }>) {
  const root = mkdtempSync(join(tmpdir(), "proc-"));
  for (const p of processes) {
    mkdirSync(join(root, String(p.pid)));
    const after = [
      "S",
      "1",
      String(p.group),
      "1",
      "0",
      "-1",
      "4194560",
      "100",
      "0",
      "0",
      "0",
      String(p.utime),
      String(p.stime),
      "0",
      "0",
      "20",
    ];
    writeFileSync(join(root, String(p.pid), "stat"), `${p.pid} (${p.name}) ${after.join(" ")}\n`);
  }
  mkdirSync(join(root, "self"));
  return root;
}

describe("bench:load", () => {
  it("adds the CPU time of every process of the server's group, read from /proc", () => {
    const proc = fakeProc([
      { pid: 500, name: "npm exec tsx", group: 500, utime: 10, stime: 5 },
      { pid: 501, name: "node (server) x", group: 500, utime: 230, stime: 40 },
      { pid: 700, name: "other", group: 700, utime: 999, stime: 999 },
    ]);
    expect(processGroupCpuMs(500, proc)).toBe(2850);
    expect(processGroupCpuMs(700, proc)).toBe(19980);
    expect(processGroupCpuMs(undefined, proc)).toBeUndefined();
    expect(processGroupCpuMs(500, join(proc, "missing"))).toBeUndefined();
  });

  it("misses the target below the ratio, over the p99 or with errors", () => {
    const minimal = { path: "/", requestsPerSecond: 1000, p99Ms: 50, errors: 0, non2xx: 0 };
    const page = { path: "/dashboard", requestsPerSecond: 360, p99Ms: 250, errors: 0, non2xx: 0 };
    expect(compare(page, minimal, SIGNED_IN_TARGET).meetsTarget).toBe(true);
    expect(compare({ ...page, requestsPerSecond: 340 }, minimal, SIGNED_IN_TARGET).meetsTarget).toBe(false);
    expect(compare({ ...page, p99Ms: 301 }, minimal, SIGNED_IN_TARGET).meetsTarget).toBe(false);
    expect(compare({ ...page, non2xx: 1 }, minimal, SIGNED_IN_TARGET).meetsTarget).toBe(false);
  });
});
