import { describe, expect, it } from "vitest";
import { badgeCount } from "~/domain/format";
import { initialsOf } from "./user-avatar";

describe("avatar initials", () => {
  it.each([
    [{ firstName: "Casey", lastName: "Customer" }, "CC"],
    [{ username: "maker", lastName: "Lovell" }, "ML"],
    [{ email: "zoe@example.test" }, "Z"],
    [{}, "U"],
    [null, "U"],
  ])("%o → %s", (user, expected) => {
    expect(initialsOf(user)).toBe(expected);
  });
});

describe("badge count", () => {
  it.each([
    [0, "0"],
    [9, "9"],
    [10, "9+"],
    [42, "9+"],
  ])("%i → %s", (n, expected) => {
    expect(badgeCount(n)).toBe(expected);
  });
});
