CREATE TABLE `live_streams` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `live_streams_user_idx` ON `live_streams` (`user_id`,`expires_at`);--> statement-breakpoint
CREATE INDEX `live_streams_expires_idx` ON `live_streams` (`expires_at`);