CREATE TABLE `health_checks` (
	`id` integer PRIMARY KEY NOT NULL,
	`checked_at` integer NOT NULL
);
