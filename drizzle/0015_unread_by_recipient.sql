-- Each message names the party it was written to: the header's unread count (every signed-in page) starts from the
-- reader's unread messages in this index instead of visiting each of the reader's orders, which cost a
-- customer with 3,000 orders about 2 ms a page. The recipient is the order's other party: the owner of the order's
-- printer when its customer wrote, else the customer. A trigger sets it on every insert, so no writer has to know
-- the rule. A migration that rebuilds messages drops the trigger and must create it again
-- (tests/integration/unread-recipients.test.ts fails otherwise).
ALTER TABLE `messages` ADD `recipient_id` integer REFERENCES users(id) ON DELETE SET NULL;
--> statement-breakpoint
UPDATE `messages` SET `recipient_id` = (
	SELECT CASE WHEN messages.sender_id = j.customer_id THEN p.owner_id ELSE j.customer_id END
	FROM print_jobs j LEFT JOIN printers p ON p.id = j.printer_id
	WHERE j.id = messages.job_id);
--> statement-breakpoint
CREATE TRIGGER `messages_recipient` AFTER INSERT ON `messages` WHEN new.recipient_id IS NULL BEGIN
	UPDATE messages SET recipient_id = (
		SELECT CASE WHEN new.sender_id = j.customer_id THEN p.owner_id ELSE j.customer_id END
		FROM print_jobs j LEFT JOIN printers p ON p.id = j.printer_id
		WHERE j.id = new.job_id)
	WHERE id = new.id;
END;
--> statement-breakpoint
CREATE INDEX `messages_recipient_idx` ON `messages` (`recipient_id`,`read_at`);
