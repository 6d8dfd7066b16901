import { describe, expect, it } from "vitest";
import { idParam } from "./api.server";
import { invariantResponse, parseId, requireIdParam, resultForIntent } from "./misc";

describe("parseId, the one id parser", () => {
  it("reads plain positive decimal ids", () => {
    expect(parseId("1")).toBe(1);
    expect(parseId("42")).toBe(42);
    expect(parseId(" 7 ")).toBe(7);
    expect(parseId(12)).toBe(12);
    expect(parseId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("refuses everything Number() would stretch into an id", () => {
    for (const value of [
      "1e3",
      "1E3",
      "0x10",
      "0b1",
      "0o7",
      "1.0",
      "1.5",
      "+1",
      "-1",
      "0",
      "00",
      "012",
      "",
      " ",
      "1 2",
      "Infinity",
      "NaN",
      "1_000",
    ]) {
      expect(parseId(value), JSON.stringify(value)).toBeNull();
    }
    expect(parseId(String(Number.MAX_SAFE_INTEGER + 2))).toBeNull();
    expect(parseId("99999999999999999999")).toBeNull();
    for (const value of [0, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1e21, null, undefined, true, {}, ["1"]]) {
      expect(parseId(value), String(value)).toBeNull();
    }
  });

  it("is what the API's idParam and the pages' requireIdParam read, so 1e3 is not found anywhere", async () => {
    expect(idParam("1000")).toBe(1000);
    expect(requireIdParam("1000")).toBe(1000);
    for (const value of ["1e3", "0x10", "1.0", undefined]) {
      let thrown: unknown;
      try {
        idParam(value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(value)).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
      expect(await (thrown as Response).json()).toEqual({ message: "Not found" });
      expect(() => requireIdParam(value)).toThrow(Response);
    }
  });
});

describe("invariantResponse", () => {
  it("throws 400 by default, the given status when told, and nothing when the condition holds", () => {
    expect(() => invariantResponse(true, "fine")).not.toThrow();
    let thrown: unknown;
    try {
      invariantResponse(false, () => "Bad input");
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Response).status).toBe(400);
    try {
      invariantResponse(0, "Missing", { status: 404 });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Response).status).toBe(404);
  });
});

describe("resultForIntent", () => {
  const refused = (initialValue: Record<string, unknown>) => ({ status: "error" as const, initialValue });

  it("gives the result to the form whose intent and fields were posted, and to no other", () => {
    const edit = refused({ intent: "address-save", addressId: "12" });
    expect(resultForIntent(edit, "address-save", { addressId: 12 })).toBe(edit);
    expect(resultForIntent(edit, "address-save", { addressId: 13 })).toBeUndefined();
    expect(resultForIntent(edit, "address-save", { addressId: "" })).toBeUndefined();
    expect(resultForIntent(edit, "address-delete")).toBeUndefined();
  });

  it('matches a field the form does not post with ""', () => {
    const added = refused({ intent: "address-save" });
    expect(resultForIntent(added, "address-save", { addressId: "" })).toBe(added);
    expect(resultForIntent(added, "address-save", { addressId: 12 })).toBeUndefined();
    expect(resultForIntent(null, "address-save")).toBeUndefined();
  });
});
