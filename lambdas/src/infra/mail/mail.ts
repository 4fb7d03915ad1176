/** One e-mail the platform sends: sign-in codes, invitations, and the agents' own mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The sender; the transport's configured address when omitted. An agent sends from its own. */
  from?: string;
}

/** Where platform e-mail goes: the local mailbox (GET /dev/mail.json) or Amazon SES. */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}
