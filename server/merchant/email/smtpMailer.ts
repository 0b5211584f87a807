import ipaddr from 'ipaddr.js'
import { createTransport } from 'nodemailer'
import { CodedError } from '../../../shared/codedError'

export type OutgoingMail = { to: string; subject: string; text: string; language: string }

/** What sends a mail: its Message-ID once the SMTP server has taken it, or a MailNotSentError. */
export type Mailer = { send(mail: OutgoingMail): Promise<{ messageId: string }>; close(): void }

/** The SMTP server did not take the mail (unreachable, refused, timed out). The message says which,
 * without the server's URL (it may carry a password) or anything of the mail. */
export class MailNotSentError extends CodedError {
  override name = 'MailNotSentError'
  readonly code = 'MAIL_NOT_SENT'
}

/** Long enough for a mail provider across the internet, short enough that send-email answers within
 * an HTTP client's patience. */
const timeoutMs = 10_000

/**
 * A mailer over the SMTP server at `smtpUrl` (SMTP_URL: smtp://host:port or smtps://, credentials in
 * the URL when the server wants them), sending from `from`. A connection per mail: invoice mail is
 * rare, and none is left open to a server that may have gone. Each mail is sent once: a retry is the
 * caller's choice, counted in its delivery record.
 */
export function smtpMailer({ smtpUrl, from }: { smtpUrl: string; from: string }): Mailer {
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 3,
    // A mail carries a bearer share link, and the login the URL's password: over the network either
    // goes only through TLS. Without this, a server whose STARTTLS offer a man in the middle strips
    // would get both in clear. Only a server on this machine (the devnet's) is spoken to in clear.
    requireTLS: !onThisMachine(smtpUrl),
  })
  return {
    async send({ to, subject, text, language }) {
      try {
        const info = await transport.sendMail({ from, to, subject, text, headers: { 'Content-Language': language } })
        return { messageId: info.messageId }
      } catch (error) {
        throw new MailNotSentError(`the SMTP server did not take the mail: ${reasonOf(error)}`, { cause: error })
      }
    },
    close: () => transport.close(),
  }
}

/** Whether the SMTP server is on this machine (a loopback address or localhost): traffic to it
 * never crosses a network. smtps:// is TLS from the first byte anyway. */
export function onThisMachine(smtpUrl: string): boolean {
  const host = new URL(smtpUrl).hostname.replace(/^\[|\]$/g, '')
  if (host === 'localhost') return true
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback'
}

/** nodemailer's code for the failure (ECONNECTION, ETIMEDOUT, EENVELOPE…) and the server's reply
 * code, never its whole message: that can quote the recipient or the URL. */
function reasonOf(error: unknown): string {
  const { code, responseCode, message } = (error ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown }
  // the socket's own reason, when nodemailer's ESOCKET wraps one: a name, never an address
  const system = typeof message === 'string' ? message.match(/\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)\b/)?.[1] : undefined
  const parts = [typeof code === 'string' ? code : 'EUNKNOWN', ...(system ? [system] : []), ...(typeof responseCode === 'number' ? [`reply ${responseCode}`] : [])]
  return parts.join(', ')
}
