// A hidden field on public forms: bots fill it, people never see it.
import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { sessionSecret } from "./env.server";

let honeypot: Honeypot | undefined;
export function getHoneypot() {
  honeypot ??= new Honeypot({ validFromFieldName: null, encryptionSeed: sessionSecret() });
  return honeypot;
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
