import { CodedError } from '../../shared/codedError'
/** Every error this layer throws on purpose: a stable `code` for callers to branch on, and a message
 * that never carries a secret, a ciphertext or a query parameter. */
export abstract class StoreError extends CodedError {}
