import { describe, expect, it } from "vitest";
import { centsToDollarString, decimalToScaledInt, dollarsToCents, formatCents } from "./money";

describe("formatCents", () => {
  it.each([
    [1234, "$12.34"],
    [0, "$0.00"],
    [5, "$0.05"],
    [98, "$0.98"],
    [123456, "$1,234.56"],
    [-50, "-$0.50"],
  ])("%i → %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it("returns an empty string for non-finite input", () => {
    expect(formatCents(Number.NaN)).toBe("");
  });

  it("writes every amount as en-US's currency format does", () => {
    const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const amounts = [0, 1, -1, 99, 100, -100, 99999, 100000, 123456789, -123456789, 100000000000, 2.5, -2.5, 1234.5];
    for (let cents = -2000; cents <= 2000; cents += 7) amounts.push(cents * 997);
    for (const cents of amounts) expect(formatCents(cents), String(cents)).toBe(usd.format(Math.round(cents) / 100));
    // a stray fraction that rounds to nothing is no amount owed: Intl would write "-$0.00"
    expect(formatCents(-0.4)).toBe("$0.00");
  });
});

describe("centsToDollarString", () => {
  it.each([
    [150, "1.50"],
    [0, "0.00"],
    [7, "0.07"],
    [100000, "1000.00"],
    [-5, "-0.05"],
  ])("%i → %s", (cents, text) => {
    expect(centsToDollarString(cents)).toBe(text);
  });
});

describe("dollarsToCents", () => {
  it.each<[string | number, number]>([
    ["$1.50", 150],
    ["0.1", 10],
    ["2", 200],
    [2, 200],
    [0.1, 10],
    [19.99, 1999],
    [" $ 12.34 ", 1234],
    [".5", 50],
    ["5.", 500],
    ["1,234.56", 123456],
    ["1.005", 101],
    ["1.004", 100],
    ["-$2.50", -250],
    ["$-2.50", -250],
    ["0", 0],
  ])("%j → %i", (input, cents) => {
    expect(dollarsToCents(input)).toBe(cents);
  });

  it.each<[unknown]>([
    [""],
    ["abc"],
    ["$"],
    ["."],
    ["1.2.3"],
    ["1,5"],
    ["--1"],
    ["12abc"],
    [Number.NaN],
    [Infinity],
    [null],
    [undefined],
  ])("%j → null", (input) => {
    expect(dollarsToCents(input as string)).toBeNull();
  });

  it("always returns an integer", () => {
    expect(Number.isInteger(dollarsToCents(0.1 + 0.2))).toBe(true);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
  });
});

describe("decimalToScaledInt", () => {
  it("scales exactly by the given number of places", () => {
    expect(decimalToScaledInt("0.0250", 5)).toBe(2500);
    expect(decimalToScaledInt("0.12", 5)).toBe(12000);
    expect(decimalToScaledInt("0.000005", 5)).toBe(1);
  });
});
