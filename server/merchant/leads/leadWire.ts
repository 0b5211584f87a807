import * as z from 'zod/mini'

/** SPEC 4.7 and 2.17 on the wire: an enquiry from the public form. */

const text = (what: string, min: number, max: number) =>
  z
    .string(`${what} is text`)
    .check(
      z.trim(),
      z.minLength(min, min === 1 ? `${what} must not be empty` : `${what} needs at least ${min} characters`),
      z.maxLength(max, `${what} is at most ${max} characters`),
    )
const optionalText = (what: string, max: number) => z.optional(z.string(`${what} is text`).check(z.trim(), z.maxLength(max, `${what} is at most ${max} characters`)))

export const platformTypes = ['dsp', 'igaming', 'gaming', 'financial', 'other'] as const
export const monthlyVolumes = ['under_100k', '100k_500k', '500k_2m', '2m_10m', '10m_plus'] as const
export const timelines = ['exploring', '1_3_months', 'asap'] as const

/** SPEC 4.7's table, field by field. Unknown fields are refused: a form that sends more is a form
 * that expects more to be kept. */
export const leadRequestSchema = z.strictObject({
  firstName: text('the first name', 1, 100),
  lastName: text('the last name', 1, 100),
  email: z.email('the email must be a valid address, such as ada@example.com').check(z.maxLength(254, 'the email is at most 254 characters')),
  company: text('the company', 1, 200),
  role: text('the role', 1, 100),
  useCaseDescription: text('the use case description', 10, 2000),
  platformType: z.enum(platformTypes, `the platform type is one of ${platformTypes.join(', ')}`),
  monthlyVolume: z.enum(monthlyVolumes, `the monthly volume is one of ${monthlyVolumes.join(', ')}`),
  timeline: z.enum(timelines, `the timeline is one of ${timelines.join(', ')}`),
  referralSource: optionalText('the referral source', 200),
  sourcePage: optionalText('the source page', 200),
  additionalNotes: optionalText('the additional notes', 2000),
  sourcePlan: optionalText('the source plan', 100),
})
export type LeadRequest = z.infer<typeof leadRequestSchema>

export const leadCreatedResponseSchema = z.object({ data: z.object({ id: z.string() }) })
