import { CodedError } from '../../../shared/codedError'
import type { Studio } from '../../store/studioStore'
import { assertActiveServerSigner } from '../signer/activeServerSigner'
import type { SessionSignerDependencies } from '../signer/sendSessionCall'

/**
 * What the consent page asks before it grants invoice writes (SPEC 5.4: "an active owner-activated
 * signer"): the same check a server-signed issue makes, its refusal in the words the issue would
 * answer, or null when the studio's signer may issue and cancel now.
 */
export function signerRefusalOf(signing: SessionSignerDependencies) {
  return async function signerRefusal(studio: Studio): Promise<string | null> {
    try {
      await assertActiveServerSigner(signing, studio)
      return null
    } catch (error) {
      if (error instanceof CodedError) return error.message
      throw error
    }
  }
}
