// A hidden field on public forms: bots fill it, people never see it.
import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { sessionSecret } from "./env.server";

let honeypot: Honeypot | undefined;
export function getHoneypot() {
  honeypot ??= new Honeypot({ validFromFieldName: null, encryptionSeed: sessionSecret() });
  return honeypot;
}

let inputProps: ReturnType<Honeypot["getInputProps"]> | undefined;
/**
 * The honeypot field names every page's forms carry. Without a valid-from field nothing in them
 * changes per request, so they are made once (making them encrypts a timestamp: costly per page).
 */
export function honeypotInputProps() {
  inputProps ??= getHoneypot().getInputProps();
  return inputProps;
}

/** Throws a 400 response when the form was filled by a bot. */
export function checkHoneypot(formData: FormData) {
  try {
    getHoneypot().check(formData);
  } catch (error) {
    if (error instanceof SpamError) throw new Response("Form not submitted properly", { status: 400 });
    throw error;
  }
}
