CREATE TABLE `background_tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`run_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`locked_at` integer,
	`last_error` text,
	`result` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "background_tasks_status_check" CHECK("status" IN ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `background_tasks_due_idx` ON `background_tasks` (`status`,`run_at`);--> statement-breakpoint
CREATE TABLE `catalogue_models` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text DEFAULT 'thingiverse' NOT NULL,
	`source_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`creator_name` text DEFAULT '' NOT NULL,
	`creator_url` text,
	`thumbnail_url` text,
	`image_urls` text DEFAULT '[]' NOT NULL,
	`public_url` text,
	`like_count` integer DEFAULT 0 NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	`view_count` integer DEFAULT 0 NOT NULL,
	`license` text DEFAULT 'Other' NOT NULL,
	`category_name` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`featured` integer DEFAULT false NOT NULL,
	`estimated_weight_grams` real,
	`print_time_minutes` integer,
	`weight_computed_at` integer,
	`source_created_at` integer,
	`fetched_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalogue_models_source_unique` ON `catalogue_models` (`source`,`source_id`);--> statement-breakpoint
CREATE INDEX `catalogue_models_newest_idx` ON `catalogue_models` (`source_created_at`);--> statement-breakpoint
CREATE INDEX `catalogue_models_popular_idx` ON `catalogue_models` (`like_count`);--> statement-breakpoint
CREATE INDEX `catalogue_models_featured_idx` ON `catalogue_models` (`featured`,`like_count`);--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_name_unique` ON `categories` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `categories_slug_unique` ON `categories` (`slug`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `filament_inventory` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`printer_id` integer NOT NULL,
	`material` text NOT NULL,
	`color` text NOT NULL,
	`grams` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "filament_inventory_grams_check" CHECK(grams >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `filament_inventory_unique` ON `filament_inventory` (`printer_id`,`material`,`color`);--> statement-breakpoint
CREATE INDEX `filament_inventory_lookup_idx` ON `filament_inventory` (`material`,`color`,`grams`);--> statement-breakpoint
CREATE TABLE `library_models` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`creator_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`difficulty` text DEFAULT 'beginner' NOT NULL,
	`print_time_minutes` integer DEFAULT 0 NOT NULL,
	`filament_weight_grams` real DEFAULT 0 NOT NULL,
	`support_required` integer DEFAULT false NOT NULL,
	`license` text DEFAULT 'CC BY' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`featured` integer DEFAULT false NOT NULL,
	`image_key` text,
	`like_count` integer DEFAULT 0 NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	`view_count` integer DEFAULT 0 NOT NULL,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "library_models_difficulty_check" CHECK("difficulty" IN ('beginner', 'intermediate', 'advanced')),
	CONSTRAINT "library_models_license_check" CHECK("license" IN ('CC BY', 'CC BY-SA', 'CC BY-NC', 'CC BY-ND', 'CC BY-NC-SA', 'CC BY-NC-ND', 'CC0', 'GPL', 'All Rights Reserved', 'Other')),
	CONSTRAINT "library_models_counts_check" CHECK(print_time_minutes >= 0 AND filament_weight_grams >= 0)
);
--> statement-breakpoint
CREATE INDEX `library_models_category_idx` ON `library_models` (`category_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `library_models_created_idx` ON `library_models` (`created_at`);--> statement-breakpoint
CREATE INDEX `library_models_popular_idx` ON `library_models` (`like_count`);--> statement-breakpoint
CREATE INDEX `library_models_featured_idx` ON `library_models` (`featured`,`created_at`);--> statement-breakpoint
CREATE INDEX `library_models_creator_idx` ON `library_models` (`creator_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`sender_type` text NOT NULL,
	`content` text NOT NULL,
	`sent_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `print_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "messages_sender_type_check" CHECK("sender_type" IN ('customer', 'printer')),
	CONSTRAINT "messages_not_blank" CHECK(length(trim(content)) > 0)
);
--> statement-breakpoint
CREATE INDEX `messages_job_idx` ON `messages` (`job_id`,`sent_at`);--> statement-breakpoint
CREATE TABLE `model_comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`library_model_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`comment` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`library_model_id`) REFERENCES `library_models`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "model_comments_not_blank" CHECK(length(trim(comment)) > 0)
);
--> statement-breakpoint
CREATE INDEX `model_comments_model_idx` ON `model_comments` (`library_model_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `model_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`library_model_id` integer,
	`catalogue_model_id` integer,
	`name` text NOT NULL,
	`size_bytes` integer DEFAULT 0 NOT NULL,
	`format` text NOT NULL,
	`storage_key` text,
	`source_file_id` integer,
	`download_url` text,
	`analysis` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`library_model_id`) REFERENCES `library_models`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`catalogue_model_id`) REFERENCES `catalogue_models`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "model_files_owner_check" CHECK((library_model_id IS NULL) <> (catalogue_model_id IS NULL))
);
--> statement-breakpoint
CREATE INDEX `model_files_library_idx` ON `model_files` (`library_model_id`);--> statement-breakpoint
CREATE INDEX `model_files_catalogue_idx` ON `model_files` (`catalogue_model_id`);--> statement-breakpoint
CREATE TABLE `model_likes` (
	`user_id` integer NOT NULL,
	`library_model_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `library_model_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`library_model_id`) REFERENCES `library_models`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `model_likes_model_idx` ON `model_likes` (`library_model_id`);--> statement-breakpoint
CREATE TABLE `model_ratings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`library_model_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`rating` integer NOT NULL,
	`review` text,
	`has_printed` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`library_model_id`) REFERENCES `library_models`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "model_ratings_range" CHECK(rating BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `model_ratings_one_per_user` ON `model_ratings` (`library_model_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `newsletter_campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject` text NOT NULL,
	`content` text NOT NULL,
	`segment` text NOT NULL,
	`recipient_count` integer DEFAULT 0 NOT NULL,
	`sent_by_id` integer,
	`sent_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`sent_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "newsletter_campaigns_segment_check" CHECK("segment" IN ('all', 'buyers', 'printer_owners', 'investors', 'unknown'))
);
--> statement-breakpoint
CREATE INDEX `newsletter_campaigns_sent_idx` ON `newsletter_campaigns` (`sent_at`);--> statement-breakpoint
CREATE TABLE `newsletter_subscribers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`user_id` integer,
	`interest` text DEFAULT 'unknown' NOT NULL,
	`unsubscribe_token` text NOT NULL,
	`subscribed_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`unsubscribed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "newsletter_subscribers_interest_check" CHECK("interest" IN ('buyer', 'printer_owner', 'investor', 'unknown'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_subscribers_unsubscribe_token_unique` ON `newsletter_subscribers` (`unsubscribe_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_subscribers_email_unique` ON `newsletter_subscribers` (lower("email"));--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`link` text,
	`is_read` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`,`is_read`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_payment_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`status` text DEFAULT 'requires_payment' NOT NULL,
	`failure_message` text,
	`authorized_at` integer,
	`captured_at` integer,
	`released_at` integer,
	`refunded_at` integer,
	`authorization_expires_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `print_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payments_status_check" CHECK("status" IN ('requires_payment', 'authorized', 'captured', 'released', 'refunded', 'failed')),
	CONSTRAINT "payments_amount_check" CHECK(amount_cents >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_payment_id_unique` ON `payments` (`provider_payment_id`);--> statement-breakpoint
CREATE INDEX `payments_job_idx` ON `payments` (`job_id`);--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`status`,`authorization_expires_at`);--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_transfer_id` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `print_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payouts_status_check" CHECK("status" IN ('pending', 'paid', 'failed')),
	CONSTRAINT "payouts_amount_check" CHECK(amount_cents >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_job_id_unique` ON `payouts` (`job_id`);--> statement-breakpoint
CREATE INDEX `payouts_owner_idx` ON `payouts` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `print_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`printer_id` integer,
	`status` text DEFAULT 'draft' NOT NULL,
	`file_name` text NOT NULL,
	`file_size` integer DEFAULT 0 NOT NULL,
	`file_format` text,
	`file_key` text,
	`preview_key` text,
	`source_kind` text DEFAULT 'upload' NOT NULL,
	`source_model_id` integer,
	`analysis` text,
	`material` text DEFAULT 'PLA' NOT NULL,
	`filament_color` text DEFAULT 'Black' NOT NULL,
	`delivery_method` text DEFAULT 'pickup' NOT NULL,
	`special_instructions` text,
	`quality` text,
	`layer_height` real DEFAULT 0.2 NOT NULL,
	`infill_percent` integer DEFAULT 20 NOT NULL,
	`supports` text DEFAULT 'auto' NOT NULL,
	`number_of_colors` integer DEFAULT 1 NOT NULL,
	`print_time_minutes` integer DEFAULT 60 NOT NULL,
	`estimated_weight_grams` real DEFAULT 25 NOT NULL,
	`bounding_box_x` real,
	`bounding_box_y` real,
	`bounding_box_z` real,
	`total_cost_cents` integer DEFAULT 0 NOT NULL,
	`printer_profit_cents` integer DEFAULT 0 NOT NULL,
	`platform_fee_cents` integer DEFAULT 0 NOT NULL,
	`delivery_fee_cents` integer DEFAULT 0 NOT NULL,
	`amount_due_cents` integer DEFAULT 0 NOT NULL,
	`shipping_carrier` text,
	`shipping_service` text,
	`delivery_zip` text,
	`tracking_number` text,
	`owner_message` text,
	`cancel_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`submitted_at` integer,
	`confirmed_at` integer,
	`accepted_at` integer,
	`rejected_at` integer,
	`printing_started_at` integer,
	`completed_at` integer,
	`ready_at` integer,
	`picked_up_at` integer,
	`shipped_at` integer,
	`cancelled_at` integer,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`printer_id`) REFERENCES `printers`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "print_jobs_status_check" CHECK("status" IN ('draft', 'submitted', 'confirmed', 'accepted', 'printing', 'completed', 'ready_for_pickup', 'ready_for_shipping', 'picked_up', 'shipped', 'cancelled', 'rejected')),
	CONSTRAINT "print_jobs_delivery_check" CHECK("delivery_method" IN ('pickup', 'delivery', 'shipping')),
	CONSTRAINT "print_jobs_supports_check" CHECK("supports" IN ('no', 'auto', 'yes')),
	CONSTRAINT "print_jobs_source_check" CHECK("source_kind" IN ('upload', 'library', 'catalogue')),
	CONSTRAINT "print_jobs_money_check" CHECK(total_cost_cents >= 0 AND printer_profit_cents >= 0 AND platform_fee_cents >= 0 AND delivery_fee_cents >= 0 AND amount_due_cents >= 0),
	CONSTRAINT "print_jobs_colors_check" CHECK(number_of_colors BETWEEN 1 AND 8)
);
--> statement-breakpoint
CREATE INDEX `print_jobs_customer_idx` ON `print_jobs` (`customer_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `print_jobs_printer_idx` ON `print_jobs` (`printer_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `print_jobs_status_idx` ON `print_jobs` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `printers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`name` text NOT NULL,
	`model` text NOT NULL,
	`description` text,
	`build_volume_x` integer NOT NULL,
	`build_volume_y` integer NOT NULL,
	`build_volume_z` integer NOT NULL,
	`fit_small` integer NOT NULL,
	`fit_mid` integer NOT NULL,
	`fit_large` integer NOT NULL,
	`materials` text DEFAULT '[]' NOT NULL,
	`rate_per_kg_cents` integer NOT NULL,
	`location` text NOT NULL,
	`city` text,
	`state` text,
	`zip` text,
	`latitude` real,
	`longitude` real,
	`is_available` integer DEFAULT true NOT NULL,
	`image_key` text,
	`rating` real,
	`total_reviews` integer DEFAULT 0 NOT NULL,
	`total_jobs` integer DEFAULT 0 NOT NULL,
	`hourly_rate_cents` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "printers_build_volume_check" CHECK(build_volume_x > 0 AND build_volume_y > 0 AND build_volume_z > 0),
	CONSTRAINT "printers_rate_check" CHECK(rate_per_kg_cents >= 0)
);
--> statement-breakpoint
CREATE INDEX `printers_owner_idx` ON `printers` (`owner_id`);--> statement-breakpoint
CREATE INDEX `printers_geo_idx` ON `printers` (`latitude`,`longitude`);--> statement-breakpoint
CREATE INDEX `printers_available_idx` ON `printers` (`is_available`,`latitude`,`longitude`);--> statement-breakpoint
CREATE INDEX `printers_fit_idx` ON `printers` (`fit_small`,`fit_mid`,`fit_large`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`window_start` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`profile_image_url` text,
	`user_type` text DEFAULT 'customer' NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`zip_code` text,
	`stripe_account_id` text,
	`newsletter_subscribed` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "users_user_type_check" CHECK("user_type" IN ('customer', 'printer_owner', 'both'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`type` text NOT NULL,
	`processed_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
