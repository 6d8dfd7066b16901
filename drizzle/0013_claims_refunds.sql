CREATE TABLE `claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`reason` text NOT NULL,
	`description` text NOT NULL,
	`photo_keys` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`owner_response` text,
	`offered_cents` integer,
	`owner_message` text,
	`answered_at` integer,
	`accepted_at` integer,
	`escalated_at` integer,
	`escalated_by` text,
	`admin_note` text,
	`decided_by_id` integer,
	`decided_at` integer,
	`refund_cents` integer,
	`resolved_at` integer,
	`payout_requested_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `print_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "claims_status_check" CHECK("status" IN ('open', 'answered', 'escalated', 'resolved')),
	CONSTRAINT "claims_reason_check" CHECK("reason" IN ('arrived_broken', 'wrong_material_or_color', 'poor_quality', 'not_received', 'other'))
);
--> statement-breakpoint
CREATE INDEX `claims_job_idx` ON `claims` (`job_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `claims_status_idx` ON `claims` (`status`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `claims_one_pending_idx` ON `claims` (`job_id`) WHERE status <> 'resolved';--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`claim_id` integer,
	`provider_payment_id` text NOT NULL,
	`provider` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`provider_refund_id` text,
	`reversed_cents` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`refunded_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `print_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`claim_id`) REFERENCES `claims`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "refunds_status_check" CHECK("status" IN ('pending', 'succeeded')),
	CONSTRAINT "refunds_amount_check" CHECK(amount_cents > 0 AND reversed_cents >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_claim_id_unique` ON `refunds` (`claim_id`);--> statement-breakpoint
CREATE INDEX `refunds_job_idx` ON `refunds` (`job_id`);--> statement-breakpoint
CREATE INDEX `refunds_status_idx` ON `refunds` (`status`);--> statement-breakpoint
ALTER TABLE `payouts` ADD `reversed_cents` integer DEFAULT 0 NOT NULL;