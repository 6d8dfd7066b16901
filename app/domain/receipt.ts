// The receipt a customer gets when their card is authorised for an order: what they bought, how it
// comes to them, the total, and that the card is charged only when the printer accepts.
import type { DeliveryAddress } from "./address";
import { addressLines } from "./address";
import { formatCents } from "./money";
import type { DeliveryMethod } from "./pricing";
import { deliveryLine } from "./shipping";

export interface ReceiptOrder {
  id: number;
  fileName: string;
  material: string;
  filamentColor: string;
  /** copies of the print; orders from before copies existed are one */
  quantity?: number | null;
  deliveryMethod: DeliveryMethod;
  shippingService?: string | null;
  deliveryFeeCents: number;
  deliveryAddress?: DeliveryAddress | null;
  amountDueCents: number;
  printerName?: string | null;
}

export const CHARGED_ON_ACCEPT =
  "Your card is authorised, not charged: it is charged when the printer accepts the order. If the printer declines, nothing is charged.";

export function orderReceipt(order: ReceiptOrder): { title: string; message: string; lines: string[] } {
  const copies = Math.max(1, Math.floor(Number(order.quantity ?? 1)) || 1);
  const delivery = deliveryLine(order);
  const lines = [
    `Order #${order.id}${order.printerName ? ` at ${order.printerName}` : ""}`,
    `Item: ${order.fileName} (${order.material}, ${order.filamentColor})`,
    `Copies: ${copies}`,
    `Delivery: ${delivery.label}: ${delivery.free ? "free" : formatCents(delivery.cents)}`,
  ];
  if (order.deliveryAddress) {
    const to = order.deliveryMethod === "delivery" ? "Deliver to" : "Ship to";
    lines.push(`${to}: ${addressLines(order.deliveryAddress).join(", ")}`);
  }
  lines.push(`Total: ${formatCents(order.amountDueCents)}`, CHARGED_ON_ACCEPT);
  return {
    title: "Your Printnear Receipt",
    message: `Thank you for your order of ${order.fileName}. Your card was authorised for ${formatCents(order.amountDueCents)}; you are charged when the printer accepts.`,
    lines,
  };
}
