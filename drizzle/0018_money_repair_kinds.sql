PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_money_repairs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`kind` text NOT NULL,
	`detail` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `print_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "money_repairs_kind_check" CHECK("kind" IN ('payout_sent', 'payout_recorded', 'payout_failed', 'capture_sent', 'capture_recorded', 'capture_lapsed', 'order_confirmed', 'hold_released', 'stranded_released', 'refund_reserved', 'refund_sent', 'reversal_sent'))
);
--> statement-breakpoint
INSERT INTO `__new_money_repairs`("id", "job_id", "kind", "detail", "created_at") SELECT "id", "job_id", "kind", "detail", "created_at" FROM `money_repairs`;--> statement-breakpoint
DROP TABLE `money_repairs`;--> statement-breakpoint
ALTER TABLE `__new_money_repairs` RENAME TO `money_repairs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `money_repairs_job_idx` ON `money_repairs` (`job_id`,`created_at`);