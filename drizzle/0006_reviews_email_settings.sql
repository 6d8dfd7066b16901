CREATE TABLE `printer_reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`printer_id` integer NOT NULL,
	`job_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`rating` integer NOT NULL,
	`review` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`job_id`) REFERENCES `print_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "printer_reviews_range" CHECK(rating BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `printer_reviews_one_per_job` ON `printer_reviews` (`job_id`);--> statement-breakpoint
CREATE INDEX `printer_reviews_printer_idx` ON `printer_reviews` (`printer_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `kind` text;--> statement-breakpoint
ALTER TABLE `users` ADD `email_off` text DEFAULT '[]' NOT NULL;