/** One e-mail the platform sends: sign-in codes, invitations, and the agents' own mail (replies in a thread among them). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same content as HTML (an agent's or a teammate's reply); text only when omitted. */
  html?: string;
  /** The sender; the transport's configured address when omitted. An agent sends from its own. */
  from?: string;
  /** Where the recipient's answer goes: a conversation's own reply address (docs/email.md). */
  replyTo?: string;
  /** The Message-ID this mail answers, and the thread's earlier ones (RFC 5322 threading). */
  inReplyTo?: string;
  references?: string[];
  /** RFC 3834: `auto-replied` on the agent's automatic answers, so that other machines do not answer them. */
  autoSubmitted?: 'auto-replied' | 'auto-generated';
}

/** Where platform e-mail goes: the local mailbox (GET /dev/mail.json) or Amazon SES. */
export interface MailTransport {
  /** Sends the mail; its final Message-ID (SES replaces the one a mail carries with its own: threads follow this one). */
  send(message: MailMessage): Promise<{ messageId: string }>;
}
