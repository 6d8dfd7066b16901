// The demo logins, printed by the seed and by the server in demo mode.
export const DEMO_PASSWORD = "printnear-demo";

export const DEMO_ACCOUNTS = [
  { role: "admin", email: "admin@printnear.test", username: "admin", firstName: "Ada", lastName: "Admin" },
  { role: "customer", email: "casey@printnear.test", username: "casey", firstName: "Casey", lastName: "Customer" },
  {
    role: "printer owner (Berthoud)",
    email: "bella@printnear.test",
    username: "bella",
    firstName: "Bella",
    lastName: "Berthold",
  },
  { role: "printer owner (Loveland)", email: "leo@printnear.test", username: "leo", firstName: "Leo", lastName: "Lovell" },
  {
    role: "printer owner (Fort Collins)",
    email: "fran@printnear.test",
    username: "fran",
    firstName: "Fran",
    lastName: "Collins",
  },
] as const;

export function demoLoginsText(): string {
  const rows = DEMO_ACCOUNTS.map((a) => `  ${a.role.padEnd(30)} ${a.email}`).join("\n");
  return `Demo logins (password for all: ${DEMO_PASSWORD}):\n${rows}`;
}
