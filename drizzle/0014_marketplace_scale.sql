-- The admin's order list reads a page from the newest end of this index instead of sorting every job.
CREATE INDEX IF NOT EXISTS `print_jobs_created_idx` ON `print_jobs` (`created_at`,`id`);
--> statement-breakpoint
-- The marketplace's jobs counted by status and month of submission ('YYYY-MM' in UTC, '' for a job never
-- submitted), kept by triggers on every insert, change and delete: the landing page's "prints this month"
-- and "orders" add up a few of these rows instead of counting every job of the marketplace on each view.
-- A migration that rebuilds print_jobs drops these triggers and must create them again
-- (tests/integration/job-counts.test.ts fails otherwise). Each step may meet a database that an earlier
-- version of this migration (0014_job_counts) already gave the table and triggers: it then keeps them.
CREATE TABLE IF NOT EXISTS `job_counts` (
	`status` text NOT NULL,
	`month` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY (`status`, `month`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR IGNORE INTO `job_counts` (status, month, n)
	SELECT status, coalesce(strftime('%Y-%m', submitted_at / 1000, 'unixepoch'), ''), count(*)
	FROM `print_jobs` GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `job_counts_insert` AFTER INSERT ON `print_jobs` BEGIN
	INSERT INTO job_counts (status, month, n)
		VALUES (new.status, coalesce(strftime('%Y-%m', new.submitted_at / 1000, 'unixepoch'), ''), 1)
		ON CONFLICT (status, month) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `job_counts_update` AFTER UPDATE OF status, submitted_at ON `print_jobs`
	WHEN old.status IS NOT new.status OR old.submitted_at IS NOT new.submitted_at BEGIN
	UPDATE job_counts SET n = n - 1
		WHERE status = old.status AND month = coalesce(strftime('%Y-%m', old.submitted_at / 1000, 'unixepoch'), '');
	INSERT INTO job_counts (status, month, n)
		VALUES (new.status, coalesce(strftime('%Y-%m', new.submitted_at / 1000, 'unixepoch'), ''), 1)
		ON CONFLICT (status, month) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `job_counts_delete` AFTER DELETE ON `print_jobs` BEGIN
	UPDATE job_counts SET n = n - 1
		WHERE status = old.status AND month = coalesce(strftime('%Y-%m', old.submitted_at / 1000, 'unixepoch'), '');
END;
