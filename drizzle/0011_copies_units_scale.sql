ALTER TABLE `print_jobs` ADD `quantity` integer DEFAULT 1 NOT NULL CHECK (`quantity` BETWEEN 1 AND 50);--> statement-breakpoint
ALTER TABLE `print_jobs` ADD `units` text DEFAULT 'mm' NOT NULL CHECK (`units` IN ('mm', 'cm', 'inch'));--> statement-breakpoint
ALTER TABLE `print_jobs` ADD `scale_percent` integer DEFAULT 100 NOT NULL CHECK (`scale_percent` BETWEEN 10 AND 1000);
