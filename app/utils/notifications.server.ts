// The notification calls live in app/services/notifications.server.ts; this path stays for the
// callers that import it from here.
export {
  countUnreadMessages,
  countUnreadNotifications,
  listNotifications,
  markNotificationsRead,
  notify,
  type NotifyOptions,
} from "~/services/notifications.server";
