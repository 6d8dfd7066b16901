// The fast 3MF path reads zlib through process.getBuiltinModule, which Node has from 20.16: the
// package asks for at least that version, so an older Node is refused at install, not slow in use.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const minimum = (range: string): number[] => {
  const match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  if (!match) throw new Error(`engines.node is not a plain minimum: ${range}`);
  return match.slice(1).map(Number);
};
const atLeast = (v: number[], w: number[]): boolean => (v[0] !== w[0] ? v[0] > w[0] : v[1] !== w[1] ? v[1] > w[1] : v[2] >= w[2]);

describe("engines", () => {
  it("asks for a Node with process.getBuiltinModule (20.16 or later), in package.json and its lock", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
    expect(atLeast(minimum(pkg.engines.node), [20, 16, 0])).toBe(true);
    expect(lock.packages[""].engines.node).toBe(pkg.engines.node);
    // the Node running the tests has it, as the range promises
    expect(typeof process.getBuiltinModule).toBe("function");
  });
});
