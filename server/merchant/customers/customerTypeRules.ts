import { ValidationError, type ValidationIssue } from '../../http/httpError'
import type { CustomerType } from './customerWire'

type TypedFields = { registrationNumber?: string | undefined; tradeName?: string | undefined; taxId?: string | undefined }

/**
 * SPEC 2.7's rules that depend on the customer's type: an entity has a registration number and may
 * have a trade name, a person may have a tax id. On a change the type is the stored one, and an
 * entity's registration number can be replaced but not cleared. Answered as the validation errors
 * they are, at the field's path.
 */
export function checkCustomerTypeRules(type: CustomerType, fields: TypedFields, change: 'create' | 'update'): void {
  const issues: ValidationIssue[] = []
  const cleared = fields.registrationNumber === '' || (change === 'create' && fields.registrationNumber === undefined)
  if (type === 'entity' && cleared) {
    issues.push({ path: 'body.registrationNumber', message: change === 'create' ? 'an entity needs its registration number' : "an entity's registration number cannot be cleared" })
  }
  if (type === 'entity' && fields.taxId) issues.push({ path: 'body.taxId', message: 'a tax id is for a person: an entity has a registration or VAT number' })
  if (type === 'person' && fields.tradeName) issues.push({ path: 'body.tradeName', message: 'a trade name is for an entity, not a person' })
  if (issues.length > 0) throw new ValidationError(issues)
}
