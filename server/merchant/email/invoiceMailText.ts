import { formatUnits } from 'viem'
import type { Language } from '../../../src/ui/languages'
import { languageOfCountry } from './invoiceMailLanguage'

/** What the customer's mail says: who sends, which invoice, how much, by when, and the link. */
export type InvoiceMailFacts = {
  merchantName: string
  customerName: string
  invoiceNumber: string
  amount: bigint
  token: { symbol: string; decimals: number }
  /** Unix seconds. */
  dueAt: bigint
  /** The tokenized share link: a bearer credential, written into the mail and nowhere else. */
  shareLink: string
}

type Shown = { merchant: string; customer: string; number: string; amount: string; due: string; link: string }
type MailText = { subject(shown: Shown): string; text(shown: Shown): string }

/**
 * The mail in the languages written for it so far: English, German, Spanish, French, Italian, Dutch
 * and Brazilian Portuguese. A customer whose country gives another of the page's languages gets
 * English until that language is written here (the page they open speaks theirs either way).
 */
const mailTexts: Partial<Record<Language, MailText>> = {
  en: {
    subject: (s) => `Invoice ${s.number} from ${s.merchant}`,
    text: (s) =>
      [
        `Hello ${s.customer},`,
        `${s.merchant} has sent you invoice ${s.number} for ${s.amount}, due on ${s.due}.`,
        `View and pay it here:\n${s.link}`,
        'Anyone with this link can see the invoice, so please do not forward it.',
      ].join('\n\n'),
  },
  de: {
    subject: (s) => `Rechnung ${s.number} von ${s.merchant}`,
    text: (s) =>
      [
        `Guten Tag ${s.customer},`,
        `${s.merchant} hat Ihnen die Rechnung ${s.number} über ${s.amount} gesendet, fällig am ${s.due}.`,
        `Hier können Sie sie ansehen und bezahlen:\n${s.link}`,
        'Jeder, der diesen Link hat, kann die Rechnung sehen. Bitte leiten Sie ihn nicht weiter.',
      ].join('\n\n'),
  },
  es: {
    subject: (s) => `Factura ${s.number} de ${s.merchant}`,
    text: (s) =>
      [
        `Hola, ${s.customer}:`,
        `${s.merchant} le ha enviado la factura ${s.number} por ${s.amount}, con vencimiento el ${s.due}.`,
        `Puede verla y pagarla aquí:\n${s.link}`,
        'Cualquier persona con este enlace puede ver la factura; por favor, no lo reenvíe.',
      ].join('\n\n'),
  },
  fr: {
    // « de » before a merchant's name would need elision (d’Acme): the name leads instead
    subject: (s) => `${s.merchant}\u00a0: facture ${s.number}`,
    text: (s) =>
      [
        `Bonjour ${s.customer},`,
        `${s.merchant} vous a envoyé la facture ${s.number} d’un montant de ${s.amount}, à régler au plus tard le ${s.due}.`,
        `Consultez-la et réglez-la ici\u00a0:\n${s.link}`,
        'Toute personne disposant de ce lien peut voir la facture\u00a0: merci de ne pas le transférer.',
      ].join('\n\n'),
  },
  it: {
    subject: (s) => `Fattura ${s.number} da ${s.merchant}`,
    text: (s) =>
      [
        `Gentile ${s.customer},`,
        `${s.merchant} le ha inviato la fattura ${s.number} di ${s.amount}, con scadenza il ${s.due}.`,
        `Può visualizzarla e pagarla qui:\n${s.link}`,
        'Chiunque abbia questo link può vedere la fattura: la preghiamo di non inoltrarlo.',
      ].join('\n\n'),
  },
  nl: {
    subject: (s) => `Factuur ${s.number} van ${s.merchant}`,
    text: (s) =>
      [
        `Beste ${s.customer},`,
        `${s.merchant} heeft u factuur ${s.number} gestuurd voor ${s.amount}, te betalen uiterlijk op ${s.due}.`,
        `Bekijk en betaal de factuur hier:\n${s.link}`,
        'Iedereen met deze link kan de factuur zien. Stuur hem daarom niet door.',
      ].join('\n\n'),
  },
  'pt-BR': {
    subject: (s) => `Fatura ${s.number} de ${s.merchant}`,
    text: (s) =>
      [
        `Olá, ${s.customer},`,
        `${s.merchant} enviou a você a fatura ${s.number} no valor de ${s.amount}, com vencimento em ${s.due}.`,
        `Veja e pague a fatura aqui:\n${s.link}`,
        'Qualquer pessoa com este link pode ver a fatura, por isso não o encaminhe.',
      ].join('\n\n'),
  },
}

/** The languages the mail is written in. */
export const mailLanguages = Object.keys(mailTexts) as Language[]

export type InvoiceMail = { language: Language; subject: string; text: string }

/** The mail to a customer in `country`: in its language where the country gives one this mail is
 * written in, else in English. Amounts and dates are written as that language writes them. */
export function invoiceMailText(facts: InvoiceMailFacts, country: string | undefined): InvoiceMail {
  const wanted = languageOfCountry(country)
  const language: Language = wanted && mailTexts[wanted] ? wanted : 'en'
  const texts = mailTexts[language]!
  // a decimal string, not a float: Intl formats it exactly, however many digits the token has
  const decimal = formatUnits(facts.amount, facts.token.decimals) as `${number}`
  const amount = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: facts.token.decimals }).format(decimal)
  const shown: Shown = {
    merchant: oneLine(facts.merchantName),
    customer: oneLine(facts.customerName),
    number: oneLine(facts.invoiceNumber),
    amount: `${amount} ${oneLine(facts.token.symbol)}`,
    due: new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(Number(facts.dueAt) * 1000)),
    link: facts.shareLink,
  }
  return { language, subject: texts.subject(shown), text: texts.text(shown) }
}

/** Names come from merchants and customers: a line break in one must not start a line of its own
 * in the mail (or a header in the subject). */
function oneLine(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ').trim()
}
