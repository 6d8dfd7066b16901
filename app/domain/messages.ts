// The conversation about a print job: its vocabulary and the rules a message must keep, shared by
// the thread component, the pages and API routes that send, and the conversation service.
// The stored text's schema is in message-text.ts, so the thread component ships no zod.

/** Longest message we store, in characters (after trimming). */
export const MESSAGE_MAX_LENGTH = 2000;
/** The form field that carries the text, and the intent a page's send button posts. */
export const MESSAGE_FIELD = "message";
export const SEND_MESSAGE_INTENT = "send-message";

export const MESSAGE_SENT_TOAST = "Message Sent";
export const MESSAGE_FAILED_TOAST = "Failed to Send Message";
export const MESSAGE_FAILED_DEFAULT = "Failed to send message";

export const MESSAGE_BLANK = "Write a message before sending.";
/** An order reaches its printer's owner once it is paid; so does the customer's first word. */
export const MESSAGE_AFTER_PAYMENT = "You can message the printer owner once your order is paid.";
export const MESSAGE_TOO_LONG = `Messages are at most ${MESSAGE_MAX_LENGTH} characters.`;

/** The two sides of an order's conversation. */
export const MESSAGE_SENDER_TYPES = ["customer", "printer"] as const;
export type SenderType = (typeof MESSAGE_SENDER_TYPES)[number];

/** One message as a thread shows it (the Message entity). */
export interface ThreadMessage {
  id: number;
  senderId: number;
  sender: { firstName: string | null; lastName: string | null };
  senderType: SenderType;
  content: string;
  /** the same text under the name older callers read */
  message: string;
  sentAt: string;
  readAt: string | null;
}

/** One conversation in a user's list (the Conversation entity). */
export interface ConversationSummary {
  jobId: number;
  jobFileName: string;
  otherUserName: string;
  printerName: string;
  lastMessage: string | null;
  lastMessageAt: string | null;
  unreadCount: number;
}

/** A person's name for a thread: first and last name, else the username. */
export function displayName(person: { firstName?: string | null; lastName?: string | null; username?: string | null }): string {
  const name = [person.firstName, person.lastName]
    .filter((part) => part && part.trim())
    .join(" ")
    .trim();
  return name || person.username || "Unknown user";
}
