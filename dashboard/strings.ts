import { de } from './strings.de'

/**
 * Every word the dashboard shows, in one catalog per language: English here and German so far; each
 * other language is an object of the same type (`DashboardStrings`) added to `catalogs`, chosen by the
 * browser's languages. Errors are not here: the merchant reads the API's own message (in English),
 * which says what to change.
 */
export const en = {
  lang: 'en',
  title: 'Merchant dashboard',
  loading: 'Loading…',
  signInHeading: 'Sign in',
  signInIntro: 'Sign in with your account to issue invoices and follow your payments.',
  signIn: 'Sign in',
  signOut: 'Sign out',
  signingIn: 'Signing you in…',
  signInFailed: 'The sign-in did not finish. Start it again.',
  navigation: 'Dashboard',
  customers: 'Customers',
  invoices: 'Invoices',
  payments: 'Payments',
  profileHeading: 'Your business profile',
  profileIntro: 'Your invoices carry these details. Complete them before you issue your first invoice.',
  type: 'Type',
  entity: 'Company',
  person: 'Individual',
  legalName: 'Legal name',
  email: 'Email',
  street: 'Street',
  city: 'City',
  postal: 'Postal code',
  country: 'Country (two letters, such as DE)',
  registrationNumber: 'Registration number (companies)',
  taxId: 'Tax ID (individuals)',
  saveProfile: 'Save profile',
  newCustomer: 'New customer',
  createCustomer: 'Create customer',
  customerCreated: (name: string) => `Customer ${name} created.`,
  noCustomers: 'No customers yet.',
  name: 'Name',
  newInvoice: 'New invoice',
  customer: 'Customer',
  chooseCustomer: 'Choose a customer',
  amount: 'Amount (USDC)',
  amountColumn: 'Amount',
  dueDays: 'Due in (days)',
  description: 'Description (optional)',
  issueInvoice: 'Issue invoice',
  issuing: 'Issuing on the chain…',
  issued: (number: string) => `Invoice ${number} issued. Send your customer this link:`,
  pending: 'Sent to the chain; it will appear in the list once confirmed.',
  shareLink: 'Share link',
  copy: 'Copy link',
  qrLabel: (number: string) => `QR code of invoice ${number}'s share link, for a phone's camera`,
  copied: 'Link copied.',
  noInvoices: 'No invoices yet.',
  number: 'Number',
  status: 'Status',
  due: 'Due',
  actions: 'Actions',
  statuses: { Issued: 'Issued', Paid: 'Paid', Canceled: 'Canceled' } as Record<string, string>,
  cancel: (number: string) => `Cancel invoice ${number}`,
  canceled: (number: string) => `Invoice ${number} canceled.`,
  resend: (number: string) => `Email invoice ${number} again`,
  resent: (number: string) => `Invoice ${number} sent to the customer.`,
  pdf: (number: string) => `PDF of invoice ${number}`,
  refresh: 'Refresh',
  noPayments: 'No payments yet.',
  paidAt: 'Paid',
  payer: 'Payer',
  gross: 'Paid amount',
  net: 'You receive',
  exportCsv: 'Export the last year as CSV',
  table: (what: string) => `${what}, scrollable table`,
}

export type DashboardStrings = typeof en

const catalogs: Record<string, DashboardStrings> = { en, de }

/** The first of the browser's languages there is a catalog for, else English. */
export function dashboardStrings(languages: readonly string[] = navigator.languages): DashboardStrings {
  for (const language of languages) {
    const catalog = catalogs[language] ?? catalogs[language.split('-')[0]!]
    if (catalog) return catalog
  }
  return en
}
