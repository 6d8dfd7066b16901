-- An owner's orders of one status, by when they were paid (or made), with their delivery method: the tracking tabs
-- and the printer dashboard's newest completed orders read a page of them from the newest end of this index, where
-- they sorted every order of the owner's tab (decision 036, eighth round). The expression must stay as the queries
-- write it, or SQLite does not use the index.
CREATE INDEX `print_jobs_printer_paid_idx` ON `print_jobs` (`printer_id`, `status`, coalesce(`confirmed_at`, `created_at`), `delivery_method`);
