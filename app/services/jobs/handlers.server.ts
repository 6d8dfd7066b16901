// Every background task handler of the product, registered in one place before the worker starts.
// A feature with a task type adds the import of its handler module here.
import "../mail/mail-task.server";
import "../catalogue/import.server";
import "../newsletter.server";
import "../orders/authorization-sweep.server";
import "../orders/reconciliation.server";
import "../orders/claims-sweep.server";
