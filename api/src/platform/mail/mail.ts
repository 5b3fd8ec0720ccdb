/** A text the hub sends: MailService sends it now, or the outbox keeps it to send again. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Live secrets in the text (a link's token): sent, logged without SMTP, but never stored in the outbox. */
  secrets?: readonly string[];
}
