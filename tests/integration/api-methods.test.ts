// Every JSON API call (and the live stream /events) answers a method it does not take with 405, an Allow header
// naming the methods it does take (GET too where the route also reads), and {message}, through the one helper
// methodNotAllowed.
import { describe, expect, test } from "vitest";
import { action as calculateShipping } from "~/routes/api.calculate-shipping";
import { action as commentDelete } from "~/routes/api.models.$id.comments.$commentId";
import { action as comments } from "~/routes/api.models.$id.comments";
import { action as confirmPayment } from "~/routes/api.confirm-payment";
import { action as connectAccount } from "~/routes/api.create-connect-account";
import { action as paymentIntent } from "~/routes/api.create-payment-intent";
import { action as jobMessage } from "~/routes/api.print-jobs.message";
import { action as transferPayment } from "~/routes/api.transfer-payment";
import { action as jobCancel } from "~/routes/api.print-jobs.$id.cancel";
import { action as jobMessages } from "~/routes/api.print-jobs.$id.messages";
import { action as jobStatus } from "~/routes/api.print-jobs.$id.status";
import { action as jobUpdate } from "~/routes/api.print-jobs.$id";
import { action as like } from "~/routes/api.models.$id.like";
import { action as orderCancel } from "~/routes/api.orders.$id.cancel";
import { action as printerChange } from "~/routes/api.printers.$id";
import { action as printerAdd } from "~/routes/api.printers";
import { action as ratings } from "~/routes/api.models.$id.ratings";
import { action as stripeWebhook } from "~/routes/api.webhooks.stripe";
import { action as submitOrder } from "~/routes/api.submit-order";
import { action as userUpdate } from "~/routes/api.users.$id";
import { action as liveEvents } from "~/routes/events";
import { args, createTestUser, jsonRequest, run, sessionCookieFor } from "../setup/requests";

type Action = (a: ReturnType<typeof args>) => Promise<unknown>;

const CASES: [string, Action, string, string, Record<string, string>][] = [
  ["/api/calculate-shipping", calculateShipping as Action, "PUT", "POST", {}],
  ["/api/confirm-payment", confirmPayment as Action, "PUT", "POST", {}],
  ["/api/submit-order", submitOrder as Action, "PUT", "POST", {}],
  ["/api/create-connect-account", connectAccount as Action, "PUT", "POST", {}],
  ["/api/create-payment-intent", paymentIntent as Action, "PUT", "POST", {}],
  ["/api/transfer-payment", transferPayment as Action, "PUT", "POST", {}],
  ["/api/print-jobs/message", jobMessage as Action, "PUT", "POST", {}],
  ["/api/webhooks/stripe", stripeWebhook as Action, "PUT", "POST", {}],
  ["/api/orders/1/cancel", orderCancel as Action, "PUT", "POST", { id: "1" }],
  ["/api/print-jobs/1", jobUpdate as Action, "POST", "GET, PUT", { id: "1" }],
  ["/api/print-jobs/1/cancel", jobCancel as Action, "POST", "PUT", { id: "1" }],
  ["/api/print-jobs/1/status", jobStatus as Action, "POST", "PUT", { id: "1" }],
  ["/api/print-jobs/1/messages", jobMessages as Action, "PUT", "GET, POST", { id: "1" }],
  ["/api/models/1/comments", comments as Action, "PUT", "GET, POST", { id: "1" }],
  ["/api/models/1/comments/1", commentDelete as Action, "POST", "DELETE", { id: "1", commentId: "1" }],
  ["/api/models/1/like", like as Action, "PUT", "POST", { id: "1" }],
  ["/api/models/1/ratings", ratings as Action, "PUT", "POST", { id: "1" }],
  ["/api/printers", printerAdd as Action, "PUT", "GET, POST", {}],
  ["/api/printers/1", printerChange as Action, "POST", "GET, PUT, PATCH, DELETE", { id: "1" }],
  ["/api/users/1", userUpdate as Action, "POST", "GET, PATCH", { id: "1" }],
  ["/events", liveEvents as Action, "POST", "GET", {}],
];

describe("a wrong method on an API call", () => {
  test.each(CASES)("%s answers 405 with Allow", async (url, action, method, allow, params) => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const res = await run(() => action(args(jsonRequest(url, {}, { cookie, method }), params)));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(await res.json()).toEqual({ message: "Method not allowed" });
  });
});
