/**
 * A real SMTP server for a test (npm smtp-server on a free port), keeping every message it receives as mailparser
 * reads it. Point the shop at it with SMTP_URL = server.url (then resetEnvForTests()).
 *
 *   const mail = await startMailServer();
 *   process.env.SMTP_URL = mail.url;
 *   …
 *   expect(mail.received[0]!.subject).toBe(…);
 *   await mail.close();
 */
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import "./smtp-greeting";

export interface MailServer {
  url: string;
  /** every message received so far, in order */
  received: ParsedMail[];
  /** forget what was received */
  clear(): void;
  close(): Promise<void>;
}

export interface MailServerOptions {
  /**
   * How the server answers a recipient, as a real one does: undefined takes it; otherwise it is refused with that
   * SMTP code (4xx: "try again later", greylisting; 5xx: final, e.g. no such mailbox). Asked at each message.
   */
  refuse?: (address: string) => { code: number; message: string } | undefined;
}

export async function startMailServer(options: MailServerOptions = {}): Promise<MailServer> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address);
      if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    clear: () => {
      received.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
