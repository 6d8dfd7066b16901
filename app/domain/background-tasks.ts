// The life of a queued background task (imports, weight caching, newsletters, authorization expiry).

export const TASK_STATUSES = ["queued", "running", "done", "failed", "cancelled"] as const;
