/** A text the hub sends: MailService sends it now, or the outbox keeps it to send again. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on a subscriber's mail); never stored in the outbox. */
  headers?: Record<string, string>;
  /** Live secrets in the text (a link's token): sent, logged without SMTP, but never stored in the outbox. */
  secrets?: readonly string[];
}
