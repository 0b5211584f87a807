import { privateKeyToAccount } from 'viem/accounts'
import type { Config } from '../../config'
import { defaultSponsorshipWindowSeconds, type PayDependencies } from '../../payments/payDependencies'
import type { Queryable } from '../../store/database'
import { createOperationQuota } from './operationQuota'
import { createServerSignerStore } from './serverSignerStore'
import { createSessionStartAllowance } from './sessionStartAllowance'
import type { SessionSignerDependencies } from './sendSessionCall'

/**
 * The server signer's parts, over the pay flow's chain client, bundler and sponsor: one executor and
 * one paymaster signer for payers' and merchants' operations alike. The key is read here and kept in
 * its account only: it is never logged or answered.
 */
export function sessionSignerDependencies(
  config: Pick<Config, 'SERVER_SIGNER_PRIVATE_KEY' | 'MERCHANT_DAILY_OPERATION_QUOTA' | 'MERCHANT_MONTHLY_OPERATION_QUOTA' | 'MERCHANT_DAILY_SESSION_STARTS'>,
  { pay, db }: { pay: PayDependencies; db: Queryable },
): SessionSignerDependencies {
  return {
    client: pay.client,
    deployment: pay.deployment,
    bundler: pay.bundler,
    sponsor: pay.sponsor,
    signer: config.SERVER_SIGNER_PRIVATE_KEY ? privateKeyToAccount(config.SERVER_SIGNER_PRIVATE_KEY) : null,
    registeredMerchant: pay.registeredMerchant,
    quota: createOperationQuota(db, { perDay: config.MERCHANT_DAILY_OPERATION_QUOTA, perMonth: config.MERCHANT_MONTHLY_OPERATION_QUOTA }),
    signers: createServerSignerStore(db),
    sessionStarts: createSessionStartAllowance(db, { perDay: config.MERCHANT_DAILY_SESSION_STARTS }),
    now: pay.now,
    submitWaitMs: pay.submitWaitMs,
    receiptPollMs: pay.receiptPollMs,
    sponsorshipWindowSeconds: pay.sponsorshipWindowSeconds ?? defaultSponsorshipWindowSeconds,
  }
}
