import { encodeDeployData, keccak256, stringToHex, type Address, type Hex } from 'viem'
import { invoiceRegistryAbi, invoiceRegistryBytecode } from '../contracts/artifacts/InvoiceRegistry'
import { ownedVerifyingPaymasterAbi, ownedVerifyingPaymasterBytecode } from '../contracts/artifacts/OwnedVerifyingPaymaster'
import { merchantVaultFactoryAbi, merchantVaultFactoryBytecode } from '../contracts/artifacts/MerchantVaultFactory'
import { payerVaultFactoryAbi, payerVaultFactoryBytecode } from '../contracts/artifacts/PayerVaultFactory'
import { sessionSignerValidatorAbi, sessionSignerValidatorBytecode } from '../contracts/artifacts/SessionSignerValidator'
import { stablecoinAbi, stablecoinBytecode } from '../contracts/artifacts/Stablecoin'
import { CodedError } from '../shared/codedError'
import type { Deployment } from '../shared/deployment'
import { mined, type DeployerClients } from './deployerClients'
import { deployDeterministic, ensureDeterministicDeployer, hasCode, type Step } from './deterministicDeployer'
import { ensureEntryPoint } from './ensureEntryPoint'
import { ensureEntryPointV06 } from './ensureEntryPointV06'
import { deployPaymasterV06, handOverPaymasterV06 } from './deployPaymasterV06'
import { offerOwnership, ownershipOf, requireDeployerOwns, type Ownership } from './ownership'
import { fundPaymaster, type PaymasterFunding } from './paymasterFunding'

/** One salt for all our contracts: their addresses then follow from their code and constructor
 * arguments alone, the same on every chain. */
export const checkoutSalt: Hex = keccak256(stringToHex('svc-checkout'))

export type DeployCheckoutParameters = {
  /** An existing ERC-20 with EIP-2612 permit (real USDC), or 'test': our Stablecoin, its faucet the deployer. */
  token: Address | 'test'
  /** Whose signatures the VerifyingPaymaster accepts: the server's PAYMASTER_SIGNER_PRIVATE_KEY. */
  paymasterSigner: Address
  treasury: Address
  retailFeeBps: number
  paymasterFunding: PaymasterFunding
  /** Who ends up owning the registry (fee, treasury, tokens) and the paymaster (deposit, stake): a
   * multisig in production. Offered once everything is deployed and funded; it owns them once it has
   * called acceptOwnership() on each. Absent (or the deployer): the deployer keeps them. */
  owner?: Address | undefined
}

export type CheckoutDeployResult = {
  deployment: Deployment
  sent: number
  /** Who owns each contract after the run, and whom it is offered to until that owner accepts. */
  ownership: { registry: Ownership; paymaster: Ownership }
}

export class TokenNotFoundError extends CodedError {
  override name = 'TokenNotFoundError'
  readonly code = 'TOKEN_NOT_FOUND'
}

/** Progress, one line per step, for a person watching the deploy. */
export type DeployReport = (line: string) => void

async function existingToken(clients: DeployerClients, token: Address): Promise<Step<Address>> {
  if (!(await hasCode(clients, token))) throw new TokenNotFoundError(`no contract at --token ${token} on this chain`)
  return { value: token, sent: 0 }
}

/**
 * Deploys what a payment needs, each contract at its CREATE2 address through the deterministic-
 * deployment proxy, skipping whatever is already in place: the proxy and EntryPoint v0.7 where the
 * chain lacks them, the token when asked, the registry (owned by the deployer, accepting the token),
 * the vault factory and the paymaster (owned by the deployer, funded and staked); then offers the
 * registry and the paymaster to `owner`; then EntryPoint v0.6 and a funded VerifyingPaymaster on it. The constructors name the deployer as owner whatever `owner`
 * is, so the addresses do not depend on it.
 */
export async function deployCheckout(clients: DeployerClients, parameters: DeployCheckoutParameters, report: DeployReport = () => {}): Promise<CheckoutDeployResult> {
  const owner = clients.wallet.account.address
  const chainId = await clients.public.getChainId()
  let sent = 0
  const placed = (name: string, done: Step<Address>): Address => {
    sent += done.sent
    report(`${name}: ${done.sent > 0 ? 'deployed at' : 'in place at'} ${done.value}`)
    return done.value
  }
  const deploy = (initCode: Hex) => deployDeterministic(clients, { salt: checkoutSalt, initCode })

  placed('deterministic-deployment proxy', await ensureDeterministicDeployer(clients))
  const entryPoint = placed('EntryPoint v0.7', await ensureEntryPoint(clients))
  const token =
    parameters.token === 'test'
      ? placed('test token', await deploy(encodeDeployData({ abi: stablecoinAbi, bytecode: stablecoinBytecode, args: [owner] })))
      : placed('token', await existingToken(clients, parameters.token))
  const registry = placed(
    'InvoiceRegistry',
    await deploy(encodeDeployData({ abi: invoiceRegistryAbi, bytecode: invoiceRegistryBytecode, args: [owner, parameters.treasury, parameters.retailFeeBps] })),
  )
  const vaultFactory = placed('PayerVaultFactory', await deploy(encodeDeployData({ abi: payerVaultFactoryAbi, bytecode: payerVaultFactoryBytecode, args: [entryPoint] })))
  // the merchant's side: the session module holds a vault's server signer to issuing and canceling;
  // merchant vaults are clones of one implementation the factory makes (for EntryPoint v0.7)
  const sessionValidator = placed('SessionSignerValidator', await deploy(encodeDeployData({ abi: sessionSignerValidatorAbi, bytecode: sessionSignerValidatorBytecode })))
  const merchantVaultFactory = placed(
    'MerchantVaultFactory',
    await deploy(encodeDeployData({ abi: merchantVaultFactoryAbi, bytecode: merchantVaultFactoryBytecode, args: [sessionValidator] })),
  )
  const paymaster = placed(
    'OwnedVerifyingPaymaster',
    await deploy(encodeDeployData({ abi: ownedVerifyingPaymasterAbi, bytecode: ownedVerifyingPaymasterBytecode, args: [entryPoint, parameters.paymasterSigner, owner] })),
  )

  if (await clients.public.readContract({ address: registry, abi: invoiceRegistryAbi, functionName: 'acceptedToken', args: [token] })) {
    report('registry accepts the token: already')
  } else {
    await requireDeployerOwns(clients, registry, 'registry', `call setAcceptedToken(${token}, true) on it`)
    await mined(clients.public, await clients.wallet.writeContract({ address: registry, abi: invoiceRegistryAbi, functionName: 'setAcceptedToken', args: [token, true] }))
    sent += 1
    report('registry accepts the token: set')
  }
  const funding = await fundPaymaster(clients, { entryPoint, paymaster }, parameters.paymasterFunding)
  sent += funding.sent
  report(`paymaster deposit and stake: ${funding.sent > 0 ? 'funded' : 'already as asked'}`)

  const handOver = async (name: string, contract: Address): Promise<Ownership> => {
    if (!parameters.owner || parameters.owner === owner) {
      const now = await ownershipOf(clients, contract)
      report(`${name} owner: ${now.owner}${now.owner === owner ? ' (the deployer)' : ''}`)
      return now
    }
    const offered = await offerOwnership(clients, contract, name, parameters.owner)
    sent += offered.sent
    report(
      offered.value.owner === parameters.owner
        ? `${name} owner: ${parameters.owner}, already`
        : `${name} owner: the deployer until ${parameters.owner} calls acceptOwnership() on ${contract}${offered.sent > 0 ? '' : ' (offered already)'}`,
    )
    return offered.value
  }
  const ownership = { registry: await handOver('registry', registry), paymaster: await handOver('paymaster', paymaster) }

  // EntryPoint v0.6 and its own VerifyingPaymaster, for smart wallets on v0.6 (Coinbase Smart Wallet,
  // Base Account): after everything above, which neither reads nor moves
  const entryPointV06 = placed('EntryPoint v0.6', await ensureEntryPointV06(clients))
  const paymasterV06 = placed('VerifyingPaymaster v0.6', await deployPaymasterV06(clients, { salt: checkoutSalt, entryPoint: entryPointV06, signer: parameters.paymasterSigner }))
  const fundingV06 = await fundPaymaster(clients, { entryPoint: entryPointV06, paymaster: paymasterV06 }, parameters.paymasterFunding)
  sent += fundingV06.sent
  report(`paymaster v0.6 deposit and stake: ${fundingV06.sent > 0 ? 'funded' : 'already as asked'}`)
  if (parameters.owner && parameters.owner !== owner) {
    const handed = await handOverPaymasterV06(clients, { paymasterV06, owner: parameters.owner, acceptedElsewhere: ownership.paymaster.owner === parameters.owner })
    sent += handed.sent
    report(
      handed.value.waiting
        ? `paymaster v0.6 owner: ${handed.value.owner}; it passes to ${parameters.owner} (in one step: its Ownable has no acceptOwnership) on a run after ${parameters.owner} has accepted the paymaster`
        : `paymaster v0.6 owner: ${handed.value.owner}${handed.sent > 0 ? ' (handed over)' : ', already'}`,
    )
  }
  return { deployment: { chainId, entryPoint, token, registry, vaultFactory, paymaster, entryPointV06, paymasterV06, merchantVaultFactory, sessionValidator }, sent, ownership }
}
