// The signed-in user as every page gets it from the root loader: the public fields of the account, the five
// newest notifications and the unread counts. The header and the contact page read it; app/root.tsx builds it.
import type { UserType } from "./users";

export interface HeaderNotification {
  id: number;
  title: string;
  message: string;
  link: string | null;
  isRead: boolean;
  createdAt: Date | string;
}

export interface RootUser {
  id: number;
  email: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  userType: UserType;
  zipCode: string | null;
  stripeAccountId: string | null;
  isAdmin: boolean;
  notifications: HeaderNotification[];
  unreadNotifications: number;
  unreadMessages: number;
}

/** What components may read of the root route's data (useRouteLoaderData<RootData>("root")). */
export interface RootData {
  user: RootUser | null;
}

/**
 * A page whose loader marks messages read (opening a thread) answers the header's unread-message count as
 * it stands after that write. The root loader runs beside the page's loader and may count before the
 * write; the header takes the deepest page's count when one is given.
 */
export interface FreshHeaderCounts {
  headerUnreadMessages?: number;
}
