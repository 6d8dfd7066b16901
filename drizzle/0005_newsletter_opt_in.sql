ALTER TABLE `newsletter_subscribers` ADD `confirm_token` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirmed_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_subscribers_confirm_token_unique` ON `newsletter_subscribers` (`confirm_token`);