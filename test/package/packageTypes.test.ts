import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, expectTypeOf, test } from 'vitest'
import type { Checkout as EmbedCheckout, MountOptions as EmbedMountOptions } from '../../embed/mount'
import type { SvcCheckout as EmbedSvcCheckout } from '../../embed/embed'
import type { CheckoutEvents as ProtocolEvents } from '../../shared/embedProtocol'
import type { WebhookEvent as WireWebhookEvent } from '../../shared/webhookWire'
import type { WebhookEvent } from '../../packages/checkout/src/server'
import type { Checkout, CheckoutEvents, MountOptions, SvcCheckout } from '../../packages/checkout/src/index'
import { packageDir } from '../../packages/checkout/scripts/buildPackage'

// The package is published on its own, so it restates the loader's types instead of importing them;
// these hold the two equal (checked by `npm run typecheck`, which covers the test files)
test('behavior: the package\'s mount options, events and API are exactly the loader\'s', () => {
  expectTypeOf<MountOptions>().toEqualTypeOf<EmbedMountOptions>()
  expectTypeOf<CheckoutEvents>().toEqualTypeOf<ProtocolEvents>()
  expectTypeOf<Checkout>().toEqualTypeOf<EmbedCheckout>()
  expectTypeOf<SvcCheckout>().toEqualTypeOf<EmbedSvcCheckout>()
})

test('behavior: the events verifyWebhook returns are exactly the ones the server delivers', () => {
  expectTypeOf<WebhookEvent>().toEqualTypeOf<WireWebhookEvent>()
})

test('behavior: the package\'s sources import nothing from the repository around it, only its own files and its dependencies', () => {
  const dir = join(packageDir, 'src')
  const specifiers = readdirSync(dir).flatMap((file) => [...readFileSync(join(dir, file), 'utf8').matchAll(/^import .* from '([^']+)'$/gm)].map((match) => match[1]))
  expect([...new Set(specifiers)].sort()).toEqual(['./index.js', 'react', 'standardwebhooks', 'viem'])
})
