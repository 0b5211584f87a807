import { CodedError } from '../shared/codedError.ts'

export type BuildErrorCode =
  | 'PAGE_NOT_BUILT'
  | 'BUILD_STEP_FAILED'
  | 'BUNDLE_MISSING'
  | 'BUNDLE_NOT_SELF_CONTAINED'
  | 'STYLESHEET_NOT_EMITTED'
  | 'DEPLOYMENT_FILE_INVALID'

/** The build, or a step run after it, cannot go on: the message names the file and what to run or
 * fix. (No parameter properties: Vite's native config loader strips types and runs the rest.) */
export class BuildError extends CodedError {
  override name = 'BuildError'
  readonly code: BuildErrorCode

  constructor(code: BuildErrorCode, message: string) {
    super(message)
    this.code = code
  }
}
