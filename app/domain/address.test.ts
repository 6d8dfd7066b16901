import { describe, expect, test } from "vitest";
import { addressTextMessages, parseAddressShape } from "./address";

const HOME = { name: "Casey Customer", line1: "1 Main St", line2: "Apt 2", city: "Loveland", state: "CO", zip: "80537" };

describe("a delivery address's typed fields follow the person-name rule", () => {
  test.each([
    ["NUL", "Casey\u0000Customer"],
    ["BEL", "Casey\u0007"],
    ["an escape sequence", "\u001b[31mCasey\u001b[0m"],
    ["CR/LF", "Casey\r\nBcc: someone"],
    ["a tab", "Casey\tCustomer"],
    ["U+202E", "Casey \u202eremotsuC"],
    ["the line separator", "Casey\u2028Customer"],
  ])("%s in any of them is refused with the field's one-line message", (_, text) => {
    for (const field of ["name", "line1", "line2", "city"] as const) {
      const parsed = parseAddressShape({ ...HOME, [field]: text });
      expect(parsed).toEqual({ errors: { [field]: [addressTextMessages(field).notOneLine] } });
    }
  });

  test.each(["\u200b", "\u200b\u200c\u200d", " \u2060 ", "\u3164", "\u00ad\u034f"])(
    "%j, which shows nothing, is refused with the field's invisible message",
    (text) => {
      for (const field of ["name", "line1", "line2", "city"] as const) {
        const parsed = parseAddressShape({ ...HOME, [field]: text });
        expect(parsed).toEqual({ errors: { [field]: [addressTextMessages(field).invisible] } });
      }
    },
  );

  test("the messages name the field", () => {
    expect(addressTextMessages("line1")).toEqual({
      notOneLine: "The street address can't contain line breaks, tabs or other control characters.",
      invisible: "The street address has no visible text (only spaces or invisible characters).",
    });
  });

  test("a phone with a line break or an invisible character is refused with one message", () => {
    expect(parseAddressShape({ ...HOME, phone: "(970)\n555-0100" })).toEqual({
      errors: { phone: [addressTextMessages("phone").notOneLine] },
    });
    expect(parseAddressShape({ ...HOME, phone: "970\ufeff555 0100" })).toEqual({
      errors: { phone: ["Enter a phone number of 10 digits (or leave it empty)."] },
    });
    expect(parseAddressShape({ ...HOME, phone: "(970) 555-0100" })).toMatchObject({ address: { phone: "(970) 555-0100" } });
  });

  test("names in other scripts, joiners inside words and outer spaces are taken", () => {
    const parsed = parseAddressShape({ ...HOME, name: "  مهرناز\u200cی  ", line1: "Straße 5", city: "Zoë" });
    expect(parsed).toEqual({
      address: { ...HOME, name: "مهرناز\u200cی", line1: "Straße 5", city: "Zoë" },
    });
  });
});
