import { negotiateLanguage } from '../../../src/ui/languages'
import { partOf, perClientLimit } from '../../http/perClientLimit'
import { acceptLanguage } from '../../http/qualityValues'
import { apiRoute } from '../../routes/apiRoute'
import { leadCreatedResponseSchema, leadRequestSchema } from './leadWire'
import { receiveLead, type LeadDependencies } from './receiveLead'

/** Absent only where no route runs (a document of the routes). */
export type LeadRoutesDependencies = { leads?: LeadDependencies }

/** A person fills in the form once; a script filling it in a loop would fill the operator's inbox and
 * mail strangers: a twentieth of the general limit, per client. */
export const leadsLimit = perClientLimit('leads', (settings) => partOf(settings, 20))

const leadRoute = apiRoute<LeadRoutesDependencies>()

/** SPEC 4.7: the public enquiry form. No credential (5.6); any origin may post it, as the form sits
 * on the website rather than on this server. */
export const leadRoutes = [
  leadRoute({
    method: 'post',
    path: '/v1/leads',
    summary: 'Sends an enquiry to the team; opens no account',
    description: 'Unauthenticated and rate-limited per client. The enquiry is kept; the team is notified and the enquirer gets a confirmation by mail, in the language of the request\'s Accept-Language (one of the 16 the product speaks, else English), sent after the answer: a mail that fails loses nothing. An address gets at most one confirmation in 24 hours, however many clients send enquiries naming it; the enquiry is still kept and the team still told.',
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [leadsLimit],
    body: leadRequestSchema,
    response: { status: 201, schema: leadCreatedResponseSchema, description: 'The enquiry, kept.' },
    errors: [],
    async handle({ body }, dependencies, c) {
      if (!dependencies.leads) throw new Error('the lead route is mounted without its dependencies')
      // SPEC 4.7's table has no language and refuses fields it does not name: the language is the one
      // the enquirer's browser sends with the form (it posts from the website's page, in their language)
      const { language } = negotiateLanguage(acceptLanguage(c.req.header('accept-language')))
      const { id } = await receiveLead(dependencies.leads, body, language)
      return { data: { id } }
    },
  }),
]
