import { languageNames, type Language } from '../../../src/ui/languages'
import type { OutgoingMail } from '../email/smtpMailer'
import { leadConfirmationTexts } from './leadConfirmationText'
import type { LeadRequest } from './leadWire'

/** A header never carries a line break from a form: a name with one would start a header of its own. */
const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim()

const volumes: Record<LeadRequest['monthlyVolume'], string> = {
  under_100k: 'under 100k',
  '100k_500k': '100k to 500k',
  '500k_2m': '500k to 2M',
  '2m_10m': '2M to 10M',
  '10m_plus': 'over 10M',
}
const timelines: Record<LeadRequest['timeline'], string> = { exploring: 'exploring', '1_3_months': 'in 1 to 3 months', asap: 'as soon as possible' }

/** The operator's notice of a new enquiry: everything the form sent, to answer it from, and the
 * language the enquirer's confirmation is written in, the one to answer them in. */
export function operatorNotice(id: string, lead: LeadRequest, to: string, language: Language): OutgoingMail {
  const optional = (label: string, value: string | undefined) => (value ? [`${label}: ${value}`] : [])
  return {
    to,
    language: 'en',
    subject: oneLine(`New enquiry from ${lead.firstName} ${lead.lastName}, ${lead.company}`),
    text: [
      `${lead.firstName} ${lead.lastName} (${lead.role} at ${lead.company}) sent an enquiry through the website.`,
      '',
      `Reply to: ${lead.email}`,
      `Platform: ${lead.platformType}`,
      `Monthly volume: ${volumes[lead.monthlyVolume]}`,
      `Timeline: ${timelines[lead.timeline]}`,
      `Confirmation language: ${languageNames[language]} (${language})`,
      ...optional('Heard of us through', lead.referralSource),
      ...optional('Sent from the page', lead.sourcePage),
      ...optional('Plan', lead.sourcePlan),
      '',
      'What they want to do:',
      lead.useCaseDescription,
      ...(lead.additionalNotes ? ['', 'Notes:', lead.additionalNotes] : []),
      '',
      `Enquiry ${id}. No account was opened for them: that is for whoever answers.`,
    ].join('\n'),
  }
}

/**
 * The enquirer's confirmation, in the language they wrote the form in. It quotes nothing they typed:
 * the form is open to anyone, and a mail that repeated its text would let anyone send words of their
 * choosing, from us, to any address.
 */
export function enquirerConfirmation(lead: LeadRequest, language: Language): OutgoingMail {
  const { subject, paragraphs } = leadConfirmationTexts[language]
  return { to: lead.email, language, subject, text: paragraphs.join('\n\n') }
}
