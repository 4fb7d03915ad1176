/**
 * What the agent says, word for word, when nobody is available (issue 29): no model writes these, so they are the
 * same every time, in the conversation's language (the languages the offline model writes; English otherwise).
 */
interface FallbackPhrases {
  /** Nobody is available now: asks for an e-mail address. */
  askEmail: string;
  /** The visitor left their address. */
  thanks: (email: string) => string;
  /** The subject of a teammate's reply by e-mail. */
  subject: (agentName: string) => string;
  /** The mail's text: the teammate's reply, then where the conversation continues. */
  mail: (author: string, text: string) => string;
}

const PHRASES: Record<'en' | 'tr' | 'de' | 'es', FallbackPhrases> = {
  en: {
    askEmail: 'Nobody from our team is available right now. Leave your e-mail address and we will answer you there.',
    thanks: (email) => `Thank you. A person from our team will answer you at ${email}.`,
    subject: (agentName) => `Your conversation with ${agentName}`,
    mail: (author, text) => `${author} wrote:\n\n${text}\n\nYou can also read the reply in the chat on our site.`,
  },
  tr: {
    askEmail: 'Şu anda ekibimizden kimse müsait değil. E-posta adresinizi bırakın, size oradan yanıt verelim.',
    thanks: (email) => `Teşekkürler. Ekibimizden biri size ${email} adresinden yanıt verecek.`,
    subject: (agentName) => `${agentName} ile sohbetiniz`,
    mail: (author, text) => `${author} yazdı:\n\n${text}\n\nYanıtı sitemizdeki sohbette de okuyabilirsiniz.`,
  },
  de: {
    askEmail: 'Gerade ist niemand aus unserem Team erreichbar. Hinterlassen Sie Ihre E-Mail-Adresse, dann antworten wir Ihnen dort.',
    thanks: (email) => `Danke. Eine Person aus unserem Team antwortet Ihnen an ${email}.`,
    subject: (agentName) => `Ihr Gespräch mit ${agentName}`,
    mail: (author, text) => `${author} schrieb:\n\n${text}\n\nSie können die Antwort auch im Chat auf unserer Website lesen.`,
  },
  es: {
    askEmail: 'Ahora mismo no hay nadie de nuestro equipo disponible. Déjenos su dirección de correo electrónico y le responderemos allí.',
    thanks: (email) => `Gracias. Una persona de nuestro equipo le responderá en ${email}.`,
    subject: (agentName) => `Su conversación con ${agentName}`,
    mail: (author, text) => `${author} escribió:\n\n${text}\n\nTambién puede leer la respuesta en el chat de nuestro sitio.`,
  },
};

/** The phrases of a conversation language (a BCP 47 tag such as `de` or `tr-TR`); English for one without its own. */
export function fallbackPhrases(language: string): FallbackPhrases {
  const primary = language.toLowerCase().split('-')[0] ?? 'en';
  return primary in PHRASES ? PHRASES[primary as keyof typeof PHRASES] : PHRASES.en;
}
