PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_background_tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 5 NOT NULL,
	`run_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`dedupe_key` text,
	`period_key` text,
	`locked_by` text,
	`locked_at` integer,
	`lease_expires_at` integer,
	`heartbeat_at` integer,
	`cancel_requested` integer DEFAULT false NOT NULL,
	`progress` text,
	`checkpoint` text,
	`last_error` text,
	`result` text,
	`started_at` integer,
	`finished_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "background_tasks_status_check" CHECK("status" IN ('queued', 'running', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
INSERT INTO `__new_background_tasks`("id", "kind", "payload", "status", "attempts", "run_at", "locked_at", "last_error", "result", "created_at", "updated_at") SELECT "id", "kind", "payload", "status", "attempts", "run_at", "locked_at", "last_error", "result", "created_at", "updated_at" FROM `background_tasks`;--> statement-breakpoint
DROP TABLE `background_tasks`;--> statement-breakpoint
ALTER TABLE `__new_background_tasks` RENAME TO `background_tasks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `background_tasks_period_key_unique` ON `background_tasks` (`period_key`);--> statement-breakpoint
CREATE INDEX `background_tasks_due_idx` ON `background_tasks` (`status`,`run_at`);--> statement-breakpoint
CREATE INDEX `background_tasks_kind_idx` ON `background_tasks` (`kind`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `background_tasks_dedupe_unique` ON `background_tasks` (`dedupe_key`) WHERE dedupe_key IS NOT NULL AND status IN ('queued', 'running');--> statement-breakpoint
CREATE TABLE `background_task_items` (
	`task_id` integer NOT NULL,
	`item_key` text NOT NULL,
	`outcome` text NOT NULL,
	`detail` text,
	`done_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`task_id`, `item_key`),
	FOREIGN KEY (`task_id`) REFERENCES `background_tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mail_batches` (
	`batch_key` text PRIMARY KEY NOT NULL,
	`window_ends_at` integer NOT NULL
);
