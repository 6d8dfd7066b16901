import { describe, expect, test } from "vitest";
import { orderReceipt } from "./receipt";

const ORDER = {
  id: 7,
  fileName: "gear.stl",
  material: "PETG",
  filamentColor: "Blue",
  deliveryMethod: "delivery" as const,
  deliveryFeeCents: 500,
  amountDueCents: 2380,
  deliveryAddress: { name: "Ann Lee", line1: "1 Main St", city: "Loveland", state: "CO", zip: "80537", phone: "9705550100" },
};

describe("orderReceipt", () => {
  test("lists copies (one when the order has no quantity), the delivery, where it goes and the total", () => {
    expect(orderReceipt(ORDER).lines).toEqual([
      "Order #7",
      "Item: gear.stl (PETG, Blue)",
      "Copies: 1",
      "Delivery: Local Delivery: $5.00",
      "Deliver to: Ann Lee, 1 Main St, Loveland, CO 80537",
      "Total: $23.80",
      "Your card is authorised, not charged: it is charged when the printer accepts the order. If the printer declines, nothing is charged.",
    ]);
    expect(orderReceipt({ ...ORDER, quantity: 3, printerName: "Lab" }).lines.slice(0, 3)).toEqual([
      "Order #7 at Lab",
      "Item: gear.stl (PETG, Blue)",
      "Copies: 3",
    ]);
  });
});
