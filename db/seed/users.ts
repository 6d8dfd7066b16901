// Demo users: one of every role, all with the demo password.
import type { DeliveryAddress } from "../../app/domain/address";
import type { Database } from "../../app/utils/db.server";
import { DEMO_ACCOUNTS } from "../demo-accounts";
import * as s from "../schema";

/** Casey's ZIP (Loveland), where her local-delivery and shipping orders go. */
export const CUSTOMER_ZIP = "80537";

/** Casey's saved default address, which her delivered and shipped orders carry a copy of. */
export const CUSTOMER_ADDRESS: DeliveryAddress = {
  name: "Casey Customer",
  line1: "500 E 4th St",
  line2: "Apt 2",
  city: "Loveland",
  state: "CO",
  zip: CUSTOMER_ZIP,
  phone: "(970) 555-0142",
};

/** Inserts the demo accounts; returns their ids by username. */
export async function seedUsers(db: Database, passwordHash: string): Promise<Map<string, number>> {
  const userIds = new Map<string, number>();
  for (const account of DEMO_ACCOUNTS) {
    const isOwner = account.role.startsWith("printer owner");
    const [row] = await db
      .insert(s.users)
      .values({
        email: account.email,
        username: account.username,
        firstName: account.firstName,
        lastName: account.lastName,
        passwordHash,
        isAdmin: account.role === "admin",
        userType: isOwner ? "printer_owner" : "customer",
        zipCode: account.username === "casey" ? CUSTOMER_ZIP : null,
      })
      .returning({ id: s.users.id });
    userIds.set(account.username, row.id);
    if (account.username === "casey") {
      await db.insert(s.addresses).values([
        { userId: row.id, ...CUSTOMER_ADDRESS, isDefault: true },
        { userId: row.id, name: "Casey Customer", line1: "200 W Oak St", city: "Fort Collins", state: "CO", zip: "80521" },
      ]);
    }
  }
  return userIds;
}
