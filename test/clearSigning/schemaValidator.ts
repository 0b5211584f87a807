import Ajv2019 from 'ajv/dist/2019'
import draft07MetaSchema from 'ajv/dist/refs/json-schema-draft-07.json'
import addFormats from 'ajv-formats'
import { isAddress } from 'viem'

/** The v2 schema declares draft-07 yet relies on unevaluatedProperties (2019-09), which a draft-07
 * validator silently ignores: validate with 2019-09 semantics. Not strict: the published schema keeps its
 * definitions under keys of its own ($context, $display, ...), which strict mode refuses. */
export function schemaValidator() {
  const ajv = new Ajv2019({ strict: false, allErrors: true })
  ajv.addMetaSchema(draft07MetaSchema)
  addFormats(ajv)
  // the two formats ERC-7730 defines for itself
  ajv.addFormat('eip55', (address: string) => isAddress(address, { strict: true }) && address !== address.toLowerCase())
  ajv.addFormat('eip155', { type: 'number', validate: (id: number) => Number.isSafeInteger(id) && id > 0 })
  return ajv
}
