import type { PinnedDeployment } from '../../shared/pinnedDeployment'

// replaced by the build (vite.config.ts `define`) with the deployment file's checked contents
declare const __SVC_DEPLOYMENT__: PinnedDeployment

/** This build's deployment. Only entry points read it; everything else is handed its deployment. */
export const pinned: PinnedDeployment = __SVC_DEPLOYMENT__
