// The fast number readers must return exactly what the general reader returns, bit for bit, and stop at the same byte.

import { describe, expect, it } from "vitest";
import { numberEnd, readDecimal, readNumber, readNumberSlow } from "./bytes";

const enc = new TextEncoder();

/** Deterministic generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function samples(count: number, seed: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const mag = 10 ** Math.floor(r() * 12 - 6);
    const v = (r() - 0.5) * mag;
    const pick = r();
    // the shapes exporters write: fixed, %g, %e, %.9g as in the bench files, integers, long mantissas
    if (pick < 0.2) out.push(v.toFixed(Math.floor(r() * 10)));
    else if (pick < 0.35) out.push(v.toExponential(Math.floor(r() * 9)));
    else if (pick < 0.5) out.push(v.toPrecision(1 + Math.floor(r() * 9)));
    else if (pick < 0.6) out.push(String(Math.fround(v)));
    else if (pick < 0.7) out.push(String(v));
    else if (pick < 0.8) out.push(String(Math.round(v * 1000)));
    else if (pick < 0.9) out.push(v.toPrecision(15 + Math.floor(r() * 6)));
    else out.push(`${r() < 0.5 ? "+" : ""}${v.toFixed(Math.floor(r() * 20))}E${Math.floor(r() * 60 - 30)}`);
  }
  return out;
}

/** Returns a description of the disagreement, or null; plain comparisons keep 200k samples fast. */
function mismatch(s: string): string | null {
  const b = enc.encode(`${s} `);
  const end = b.length - 1;
  const slow = readNumberSlow(b, 0, end);
  const slowEnd = numberEnd;
  const fast = readNumber(b, 0, end);
  if (!Object.is(fast, slow) || numberEnd !== slowEnd) return `${s}: readNumber ${fast}@${numberEnd}, general ${slow}@${slowEnd}`;
  const dec = readDecimal(b, 0, end);
  if (!Object.is(dec, slow) || numberEnd !== slowEnd) return `${s}: readDecimal ${dec}@${numberEnd}, general ${slow}@${slowEnd}`;
  return null;
}

function check(list: string[]): void {
  const bad: string[] = [];
  for (const s of list) {
    const m = mismatch(s);
    if (m) bad.push(m);
  }
  expect(bad.slice(0, 10)).toEqual([]);
}

describe("number readers", () => {
  it("agree on random numbers in every common notation", () => {
    check(samples(200_000, 42));
  });
  it("agree on edge cases", () => {
    const cases = [
      "0",
      "-0",
      "+0",
      "0.",
      ".5",
      "-.5",
      "5.",
      "1e5",
      "1E-5",
      "1e",
      "1e+",
      "-",
      "+",
      ".",
      "",
      "inf",
      "-inf",
      "nan",
      "123456789012345",
      "1234567890123456",
      "12345678901234567890",
      "0.000000000000001",
      "0.0000000000000001",
      "1.00000000000000",
      "1e308",
      "1e309",
      "1e-320",
      "4.9e-324",
      "1e22",
      "1e23",
      "123e-25",
      "9007199254740993",
      "1.5e00001",
      "2.5e-0005",
      "0x10",
      "1..2",
      "1.2.3",
      "7-",
      "1e5x",
    ];
    check(cases);
  });
  it("stop at the end given, not at the end of the buffer", () => {
    const b = enc.encode("12.5675");
    expect(readDecimal(b, 0, 4)).toBe(12.5);
    expect(numberEnd).toBe(4);
    expect(readNumber(b, 0, 4)).toBe(12.5);
    expect(numberEnd).toBe(4);
  });
});
