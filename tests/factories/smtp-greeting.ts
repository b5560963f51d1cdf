/**
 * The tests' SMTP servers greet a new connection at once. smtp-server (npm) holds every connection for a fixed 100 ms
 * before its 220 greeting, to catch spam software that talks before it is greeted ("early talkers"); the shop's mailer
 * (nodemailer) always waits for the greeting, so in the tests the hold was only waiting: ~100 ms of idle per e-mail,
 * most of an e-mail's time (gift-card-email-changes.int.test.ts took 5.2 s instead of 0.7 s). Everything from the
 * greeting on (EHLO, MAIL, RCPT, DATA, the codes and refusals) is smtp-server's own, unchanged.
 *
 * Imported by the factory (mail-server.ts) and the end-to-end specs that start an SMTPServer themselves; the change is
 * to smtp-server's connection class in the test process only, and the same each time it is applied.
 */
import { SMTPConnection } from "smtp-server/lib/smtp-connection.js";

SMTPConnection.prototype.init = function init(this: SMTPConnection) {
  this._setListeners(() => {
    // smtp-server's own check before its hold, kept as it is
    const { maxClients } = this._server.options;
    if (maxClients && this._server.connections.size > maxClients) return this.send(421, `${this.name} Too many connected clients, try again in a moment`, false);
    this.connectionReady();
  });
};
