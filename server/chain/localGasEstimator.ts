import { pad, toHex, type Hex, type PublicClient } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { payerVaultFactoryAbi } from '../../contracts/artifacts/PayerVaultFactory'
import type { Deployment } from '../../shared/deployment'
import { referencePreVerificationGas } from './referencePreVerificationGas'

export type AccountGas = { callGasLimit: bigint; verificationGasLimit: bigint; preVerificationGas: bigint }

/** The vault's validation (the typed Payment digest of the decoded call, ECDSA, its window) measured
 * on anvil at ~15k for a deployed vault (~12k before the typed message): the margin stays wide. */
const validateUserOpGas = 40_000n
const withMargin = (gas: bigint) => (gas * 130n) / 100n

/**
 * Gas for the account's part of a payment, measured on the chain rather than guessed:
 * - the call: estimated as the EntryPoint calling the vault; an undeployed vault is stood in for by
 *   its implementation's code with the owner in storage slot 0 (SimpleAccount's only state), so the
 *   permit's ERC-1271 check runs as it will after deployment;
 * - verification: the factory's deployment measured directly, plus the account's validation.
 */
export async function estimateAccountGas(
  client: PublicClient,
  deployment: Deployment,
  userOp: UserOperation<'0.7'>,
  { owner, deployed }: { owner: Hex; deployed: boolean },
): Promise<AccountGas> {
  const stateOverride = deployed
    ? undefined
    : [
        {
          address: userOp.sender,
          code: await implementationCode(client, deployment),
          state: [{ slot: pad(toHex(0), { size: 32 }), value: pad(owner, { size: 32 }) }],
        },
      ]
  const [callGas, deployGas] = await Promise.all([
    client.estimateGas({ account: deployment.entryPoint, to: userOp.sender, data: userOp.callData, ...(stateOverride ? { stateOverride } : {}) }),
    deployed || !userOp.factory || !userOp.factoryData
      ? 0n
      : client.estimateGas({ account: deployment.entryPoint, to: userOp.factory, data: userOp.factoryData }),
  ])
  return {
    callGasLimit: withMargin(callGas),
    verificationGasLimit: withMargin(deployGas + validateUserOpGas),
    // the vault signs with one 65-byte ECDSA signature
    preVerificationGas: referencePreVerificationGas({ version: '0.7', userOp }, 65),
  }
}

const implementationCache = new WeakMap<PublicClient, Promise<Hex>>()

function implementationCode(client: PublicClient, deployment: Deployment): Promise<Hex> {
  let code = implementationCache.get(client)
  if (!code) {
    code = client
      .readContract({ address: deployment.vaultFactory, abi: payerVaultFactoryAbi, functionName: 'vaultImplementation' })
      .then(async (implementation) => (await client.getCode({ address: implementation })) ?? '0x')
    code.catch(() => implementationCache.delete(client))
    implementationCache.set(client, code)
  }
  return code
}
