// Admin pages and calls: visitors go to sign in (pages) or get 401 (API); signed-in users who
// are not admins get "Access Denied / Admin access required" and go to / (pages) or get 403.
import type { User } from "../../db/schema";
import { requireApiAdmin } from "./api.server";
import { getSessionUser, requireUser } from "./session.server";
import { redirectWithToast } from "./toast.server";

export const ACCESS_DENIED = { title: "Access Denied", description: "Admin access required", variant: "destructive" } as const;

export async function requireAdmin(request: Request): Promise<User> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw await redirectWithToast("/", ACCESS_DENIED);
  return user;
}

export { requireApiAdmin, getSessionUser };
