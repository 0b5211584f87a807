import { useEffect, useState } from 'preact/hooks'
import type { Address } from 'viem'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import type { OwnerPrompt, OwnerStudio, PreparedOperation } from '../wallet/ownerWallet'
import { loadOwnerWallet } from '../wallet/loadOwnerWallet'
import { connectedOwner, followOwnerAccount, OwnerAccountMoved, stillConnectedAs } from '../wallet/ownerAccount'
import { hasProviderCode, providerErrors } from '../../shared/eip1193'
import type { WalletChoice } from '../../src/wallet/walletChoice'
import { errorText } from './Field'

/** What a view asks the owner to sign: the prepare route's answer for the connected owner, and what
 * to do with the signed operation (its answer is the notice the merchant reads). */
export type OwnerOperation = {
  /** The vault the message must name, when it is not the signed-in studio's (a vault being created). */
  vaultOf?: (owner: Address) => Promise<OwnerStudio>
  prepare: (owner: Address) => Promise<PreparedOperation>
  submit: (signedUserOp: Record<string, unknown>, prepared: PreparedOperation) => Promise<string>
}

export type StudioWire = OwnerStudio & { id: string; profile: import('../wallet/invoiceRecord').ProfileWire | null }

/** GET /v1/studios/me: the vault every owner message must name, and the profile invoices carry. */
export function useStudio(api: Api) {
  const [studio, setStudio] = useState<StudioWire | null>(null)
  useEffect(() => {
    api
      .json<{ data: StudioWire }>('GET', '/v1/studios/me')
      .then((answer) => setStudio(answer.data))
      .catch(() => setStudio(null))
  }, [])
  return studio
}

type Step =
  | { step: 'idle' }
  | { step: 'choose'; choices: WalletChoice[] }
  | { step: 'preparing' }
  | { step: 'review'; owner: Address; prepared: PreparedOperation; prompt: OwnerPrompt }
  | { step: 'signing' }

/** EIP-1193's "the user rejected the request", also as wallets and wagmi nest it. */
const rejected = (error: unknown) => hasProviderCode(error, providerErrors.userRejected)

/** Why a prompt prepared for `owner` was dropped, in the merchant's words: the wallet's account now. */
function movedProblem(t: DashboardStrings, { prepared, now }: Pick<OwnerAccountMoved, 'prepared' | 'now'>): string {
  if (!now) return t.wallet.walletDisconnected
  return now.owner.toLowerCase() === prepared.toLowerCase() ? t.wallet.networkSwitched : t.wallet.accountSwitched(now.owner)
}

/**
 * One owner operation, step by step, as the merchant sees it: the wallet to connect (the browser's own,
 * found by EIP-6963, or WalletConnect), then the message in the descriptor's words with the vault and
 * chain checked and the account that signs it named, and only on "Sign in my wallet" the wallet's
 * prompt; the signed operation is then submitted. A wallet that moves to another account or chain
 * meanwhile drops the prompt: nothing is signed for an account the wallet has left.
 */
export function OwnerSignature({ t, studio, operation, onFinished }: { t: DashboardStrings; studio: OwnerStudio | null; operation: OwnerOperation | null; onFinished: (outcome: { notice?: string; problem?: string }) => void }) {
  const [step, setStep] = useState<Step>({ step: 'idle' })
  const finish = (outcome: { notice?: string; problem?: string }) => {
    setStep({ step: 'idle' })
    onFinished(outcome)
  }
  const fail = (error: unknown) => finish({ problem: error instanceof OwnerAccountMoved ? movedProblem(t, error) : rejected(error) ? t.wallet.notSigned : errorText(error) })

  async function prepareFor(owner: Address) {
    if (!operation) return
    setStep({ step: 'preparing' })
    try {
      const wallet = await loadOwnerWallet()
      await wallet.moveToPinnedChain()
      const vault = operation.vaultOf ? await operation.vaultOf(owner) : studio
      if (!vault) throw new Error(t.wallet.noStudio)
      const prepared = await operation.prepare(owner)
      const prompt = await wallet.describeOwnerOperation(prepared, vault, owner)
      setStep({ step: 'review', owner, prepared, prompt })
    } catch (error) {
      fail(error)
    }
  }

  useEffect(() => {
    if (!operation) return setStep({ step: 'idle' })
    if (!studio && !operation.vaultOf) return finish({ problem: t.wallet.noStudio })
    setStep({ step: 'preparing' })
    let stop = () => {}
    let left = false
    loadOwnerWallet()
      .then(async (wallet) => {
        // a wallet connected earlier is asked which account it is on now: the message is prepared for that one
        const connected = connectedOwner() && (await wallet.ownerAccountNow())
        if (left) return
        if (connected) return prepareFor(connected.owner)
        stop = wallet.watchOwnerWallets((choices) => setStep((now) => (now.step === 'preparing' || now.step === 'choose' ? { step: 'choose', choices } : now)))
      })
      .catch(fail)
    return () => {
      left = true
      stop()
    }
  }, [operation])

  async function connect(choice: WalletChoice) {
    setStep({ step: 'preparing' })
    try {
      const wallet = await loadOwnerWallet()
      await prepareFor(await wallet.connectOwnerWallet(choice))
    } catch (error) {
      fail(error)
    }
  }

  // the words on screen are for the account they were prepared for: once the wallet moves to another
  // account or chain (or disconnects), they are taken away and the merchant is told which account it is on
  useEffect(() => {
    if (step.step !== 'review') return
    const { owner, prepared } = step
    const chainId = Number(prepared.typedDataToSign.domain.chainId)
    return followOwnerAccount((now) => {
      if (!stillConnectedAs(now, owner, chainId)) finish({ problem: movedProblem(t, { prepared: owner, now }) })
    })
  }, [step])

  async function sign(owner: Address, prepared: PreparedOperation) {
    setStep({ step: 'signing' })
    try {
      const wallet = await loadOwnerWallet()
      const signed = await wallet.signOwnerOperation(prepared, owner)
      finish({ notice: await operation!.submit(signed, prepared) })
    } catch (error) {
      fail(error)
    }
  }

  if (step.step === 'idle') return null
  return (
    <section class="owner" aria-labelledby="owner-heading">
      <h2 id="owner-heading">{step.step === 'review' ? t.wallet.checkSignature : t.wallet.ownerWallet}</h2>
      {step.step === 'choose' ? (
        step.choices.length === 0 ? (
          <>
            <p>{t.wallet.noWallet}</p>
            <div class="actions">
              <button type="button" class="secondary" onClick={() => finish({})}>{t.wallet.dontSign}</button>
            </div>
          </>
        ) : (
          <>
            <p>{t.wallet.connectIntro}</p>
            <div class="actions">
              {step.choices.map((choice) => (
                <button key={choice.id} type="button" onClick={() => void connect(choice)}>
                  {t.wallet.connectWallet(choice.name || t.wallet.browserWallet)}
                </button>
              ))}
              <button type="button" class="secondary" onClick={() => finish({})}>{t.wallet.dontSign}</button>
            </div>
          </>
        )
      ) : step.step === 'review' ? (
        <>
          <p class="intent">{step.prompt.intent}</p>
          <p class="signer">{t.wallet.signingAs(step.owner)}</p>
          <ul class="lines">
            {step.prompt.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p>{t.wallet.signatureChecked}</p>
          <div class="actions">
            <button type="button" onClick={() => void sign(step.owner, step.prepared)}>{t.wallet.signInWallet}</button>
            <button type="button" class="secondary" onClick={() => finish({ problem: t.wallet.notSigned })}>{t.wallet.dontSign}</button>
          </div>
        </>
      ) : (
        <p role="status">{step.step === 'signing' ? t.wallet.confirmInWallet : t.wallet.preparing}</p>
      )}
    </section>
  )
}
