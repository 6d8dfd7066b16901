// Upload limits shared by the browser (early checks) and the server (the real ones).

/** The maximum size of a design upload: 50 MB (52428800 bytes). */
export const MAX_DESIGN_BYTES = 52_428_800;

/** The one message for a model or design file past MAX_DESIGN_BYTES. */
export const FILE_TOO_LARGE_MESSAGE = "File size exceeds 50MB limit";

/** An upload whose body could not be read as a form (cut off, malformed, too many files). */
export const UNREADABLE_UPLOAD_MESSAGE = "The upload could not be read. Please try again.";
