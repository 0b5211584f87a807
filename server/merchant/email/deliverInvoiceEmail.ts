import { hasCode } from '../../../shared/codedError'
import type { Logger } from '../../http/logger'
import type { InvoiceKey } from '../../store/invoiceKey'
import type { EmailDelivery, EmailDeliveryStore } from './emailDeliveryStore'
import { invoiceMailText, type InvoiceMailFacts } from './invoiceMailText'
import type { Mailer } from './smtpMailer'

export type EmailDependencies = {
  /** null: no SMTP_URL, so no mail can go out and every delivery answers `not_configured`. */
  mailer: Mailer | null
  deliveries: EmailDeliveryStore
  logger: Logger
}

/** Who the mail goes to: the invoice's customer as the studio keeps it. */
export type MailRecipient = { customerId: string | null; name: string; email: string; country?: string | undefined }

/** SPEC 4.9-4.11's `delivery`: what became of the mail, apart from what became of the invoice. */
export type DeliveryAnswer = { status: 'queued' | 'sent' | 'failed' | 'not_configured'; messageId?: string; to: string }

export type DeliverInvoiceEmailParameters = {
  studioId: string
  invoice: InvoiceKey
  recipient: MailRecipient
  mail: Omit<InvoiceMailFacts, 'customerName'>
  /**
   * `issuance`: the mail issuance sends (sendEmail: true), at most once per invoice, so an issuance
   * retry answers the first delivery's outcome and sends nothing; `request`: the merchant asks for
   * it (send-email), and it is sent again.
   */
  trigger: 'issuance' | 'request'
}

/**
 * Sends the invoice's mail to its customer and records the outcome. It throws only when the merchant
 * asked for it more often today than allowed (EMAIL_REQUEST_LIMIT, send-email only): a failed
 * delivery, or one that could not be recorded, is an answer (`failed`), never a failed issuance. The
 * share link is in the mail alone, never in a record or a log.
 */
export async function deliverInvoiceEmail(email: EmailDependencies, parameters: DeliverInvoiceEmailParameters): Promise<DeliveryAnswer> {
  try {
    return await deliver(email, parameters)
  } catch (error) {
    // the merchant's own request over its daily count: an answer to them (429), not a failed mail
    if (hasCode(error, 'EMAIL_REQUEST_LIMIT')) throw error
    // the record could not be written or read (the database): the mail's outcome is unknown, the
    // invoice's is not, and issuance must still answer it
    email.logger.error({ invoiceId: parameters.invoice.invoiceId.toString(), error: (error as Error).name }, 'invoice mail delivery not recorded')
    return { status: 'failed', to: parameters.recipient.email }
  }
}

async function deliver(email: EmailDependencies, { studioId, invoice, recipient, mail, trigger }: DeliverInvoiceEmailParameters): Promise<DeliveryAnswer> {
  const to = recipient.email
  if (!email.mailer) return { status: 'not_configured', to }
  const start = { studioId, invoice, customerId: recipient.customerId, recipient: to }
  if (trigger === 'issuance') {
    const first = await email.deliveries.startFirst(start)
    if (!first) {
      const earlier = await email.deliveries.find(invoice)
      return earlier ? answerOf(earlier) : { status: 'queued', to }
    }
  } else {
    await email.deliveries.startAgain(start)
  }
  const text = invoiceMailText({ ...mail, customerName: recipient.name }, recipient.country)
  try {
    const { messageId } = await email.mailer.send({ to, subject: text.subject, text: text.text, language: text.language })
    return answerOf(await email.deliveries.finish(invoice, { status: 'sent', messageId }))
  } catch (error) {
    if (!hasCode(error, 'MAIL_NOT_SENT')) throw error
    email.logger.warn({ invoiceId: invoice.invoiceId.toString(), code: error.code, message: error.message }, 'invoice mail not sent')
    return answerOf(await email.deliveries.finish(invoice, { status: 'failed', error: error.message }))
  }
}

export function answerOf(delivery: EmailDelivery): DeliveryAnswer {
  return { status: delivery.status, ...(delivery.messageId ? { messageId: delivery.messageId } : {}), to: delivery.recipient }
}
