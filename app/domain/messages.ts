// The two sides of an order's conversation.

export const MESSAGE_SENDER_TYPES = ["customer", "printer"] as const;
