#!/usr/bin/env node
// `svc`, the merchant CLI as a command of its own (package.json "bin"; `npm link` puts it on the
// PATH): the same entry as `npm run merchant`, its TypeScript run through tsx as the npm script does
import { register } from 'tsx/esm/api'

register()
await import('./merchant.ts')
