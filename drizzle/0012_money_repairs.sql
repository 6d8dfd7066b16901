ALTER TABLE `payouts` ADD `failure_message` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `claimed_at` integer;--> statement-breakpoint
CREATE TABLE `money_repairs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`kind` text NOT NULL,
	`detail` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "money_repairs_kind_check" CHECK("kind" IN ('payout_sent', 'payout_recorded', 'payout_failed', 'capture_sent', 'capture_recorded', 'capture_lapsed', 'order_confirmed', 'hold_released', 'stranded_released')),
	FOREIGN KEY (`job_id`) REFERENCES `print_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX `money_repairs_job_idx` ON `money_repairs` (`job_id`,`created_at`);
