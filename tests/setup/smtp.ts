// The one SMTP server of the mail tests (vitest and Playwright): a real server on a free local port that
// keeps each message it accepts, parsed; a test may have it refuse recipients, messages or the sign-in.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** An SMTP answer: its code and text, as a refusing server gives them. */
export interface SmtpReply {
  code: number;
  message: string;
}

export interface SmtpRefusals {
  /** the answer to RCPT TO for this address; nothing accepts it */
  recipient?(address: string): SmtpReply | undefined;
  /** the answer once a message has arrived; nothing keeps it */
  message?(): SmtpReply | undefined;
  /** the answer to every sign-in (AUTH), which the server then asks for */
  signIn?: SmtpReply;
}

export interface TestSmtpServer {
  /** the messages accepted so far, in order */
  readonly received: ParsedMail[];
  /** starts listening; resolves to the server's address, smtp://127.0.0.1:port */
  start(): Promise<string>;
  stop(): Promise<void>;
}

const refusal = (reply: SmtpReply) => Object.assign(new Error(reply.message), { responseCode: reply.code });

export function testSmtpServer(refuse: SmtpRefusals = {}): TestSmtpServer {
  const received: ParsedMail[] = [];
  const signIn = refuse.signIn;
  const server = new SMTPServer({
    authOptional: !signIn,
    allowInsecureAuth: Boolean(signIn),
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(_auth, _session, callback) {
      if (signIn) return callback(refusal(signIn));
      callback(null, { user: "test" });
    },
    onRcptTo(address, _session, callback) {
      const reply = refuse.recipient?.(address.address);
      callback(reply ? refusal(reply) : null);
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const reply = refuse.message?.();
        if (reply) return callback(refusal(reply));
        received.push(await simpleParser(Buffer.concat(chunks)));
        callback();
      });
    },
  });
  return {
    received,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}
