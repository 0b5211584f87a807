import type { Language } from '../../../src/ui/languages'
import type { Logger } from '../../http/logger'
import type { Mailer } from '../email/smtpMailer'
import { enquirerConfirmation, operatorNotice } from './leadMail'
import type { LeadStore } from './leadStore'
import type { LeadRequest } from './leadWire'

export type LeadDependencies = {
  leads: Pick<LeadStore, 'createLead' | 'markMailed' | 'claimConfirmation' | 'releaseConfirmation' | 'confirmationWithheld'>
  /** Null where no SMTP server is configured: enquiries are kept, no mail goes out. */
  mailer: Mailer | null
  /** LEADS_NOTIFY_EMAIL: who hears of each enquiry; null, nobody is told (they are still kept). */
  notifyTo: string | null
  logger: Logger
}

/**
 * SPEC 4.7: keeps the enquiry, then mails the operator and the enquirer. The enquiry is written
 * first, and the mails go out after the answer (`mailed`), each on its own: a mail server that is
 * down or slow neither loses the enquiry nor holds the form's answer, and one mail failing does not
 * stop the other. What was sent is written beside the enquiry. Nothing here opens an account.
 * The enquirer's address gets at most one confirmation in 24 hours, however many clients send
 * enquiries naming it: the per-client rate limit alone let many clients together mail one stranger
 * again and again. Every enquiry is still kept, and the operator still told of each.
 * The confirmation is written in `language`, the one the enquirer filled in the form in.
 */
export async function receiveLead({ leads, mailer, notifyTo, logger }: LeadDependencies, lead: LeadRequest, language: Language): Promise<{ id: string; mailed: Promise<void> }> {
  const id = await leads.createLead(lead)
  const send = async (what: 'operator' | 'confirmation') => {
    if (!mailer || (what === 'operator' && !notifyTo)) return
    let claim: Awaited<ReturnType<typeof leads.claimConfirmation>> = null
    try {
      if (what === 'confirmation') {
        claim = await leads.claimConfirmation(lead.email)
        if (!claim) return await leads.confirmationWithheld(id)
      }
      await mailer.send(what === 'operator' ? operatorNotice(id, lead, notifyTo!, language) : enquirerConfirmation(lead, language))
      claim = null
      await leads.markMailed(id, what)
    } catch (error) {
      // a confirmation that did not go leaves its address's 24 hours free for the next enquiry
      if (claim) await leads.releaseConfirmation(claim).catch(() => undefined)
      // the enquiry is kept: whoever reads the leads sees which mail did not go
      logger.warn({ err: error, lead: id, mail: what }, 'an enquiry mail was not sent')
    }
  }
  return { id, mailed: Promise.all([send('operator'), send('confirmation')]).then(() => undefined) }
}
