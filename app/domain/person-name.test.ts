import { describe, expect, test } from "vitest";
import { oneLine } from "./one-line";
import { NAME_INVISIBLE_MESSAGE, NAME_ONE_LINE_MESSAGE, PersonNameSchema } from "./person-name";

describe("PersonNameSchema", () => {
  test.each([
    ["Zoë", "Zoë"],
    ["  Anne-Marie O'Neil ", "Anne-Marie O'Neil"],
    ["مهرناز\u200cی", "مهرناز\u200cی"], // the zero-width non-joiner belongs to Persian names
    ["", null],
    [undefined, null],
  ])("takes %j as %j", (input, stored) => {
    expect(PersonNameSchema.parse(input)).toBe(stored);
  });

  test.each(["Jo\nSmith", "Jo\r\nBcc: x", "Jo\tSmith", "Jo\u0000", "Jo\u007f", "Jo\u0085", "Jo\u2028Smith", "Jo\u202eevil"])(
    "refuses %j with the one-line message",
    (input) => {
      const result = PersonNameSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([NAME_ONE_LINE_MESSAGE]);
    },
  );

  test.each(["\u200b", " \u200b\u200c ", "\u2060\u3164", "\u2800"])(
    "refuses %j, which shows nothing, with the invisible message",
    (input) => {
      const result = PersonNameSchema.safeParse(input);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([NAME_INVISIBLE_MESSAGE]);
    },
  );
});

test("oneLine makes each run of line breaks and control characters one space", () => {
  expect(oneLine("Hi Jo\r\n\r\nYour account\u2028is\tlocked\u202e")).toBe("Hi Jo Your account is locked ");
  expect(oneLine("plain text")).toBe("plain text");
});
