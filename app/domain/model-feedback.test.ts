import { describe, expect, test } from "vitest";
import { cleanUserText } from "./model-feedback";

describe("cleanUserText", () => {
  test.each([
    ["\u0000\u0000", ""],
    ["\u200B\u200C\u200D\u2060\uFEFF", ""],
    ["\u202Egnp.exe", "gnp.exe"],
    ["  a\u0007b\r\nc\td  ", "ab\nc\td"],
    ["soft\u00ADhyphen", "softhyphen"],
    ["\u3164", ""],
    ["👩‍👩‍👧", "👩‍👩‍👧"],
    ["cafe\u0301", "café"],
  ])("%j → %j", (raw, clean) => {
    expect(cleanUserText(raw)).toBe(clean);
  });
});
