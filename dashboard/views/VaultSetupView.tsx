import { useState } from 'preact/hooks'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { loadOwnerWallet } from '../wallet/loadOwnerWallet'
import type { PreparedOperation } from '../wallet/ownerWallet'
import { Field, Notice, Problem } from './Field'
import { OwnerSignature, type OwnerOperation } from './OwnerSignature'
import { untilSettled } from './untilSettled'

type Submitted = { status: 'deployed' | 'pending'; studioId: string; vaultAddress: `0x${string}` }
type SignerStatus = { status: string; signer_address?: string; activation?: { signer_address: string; user_op: Record<string, unknown> & { typedDataToSign: PreparedOperation['typedDataToSign'] } }; activation_error?: string }

/**
 * First run for a merchant without a studio (SPEC 4.3): the studio's vault is created by the owner's
 * wallet. The dashboard builds the vault's first operation (the pinned factory's createAccount for the
 * connected owner), the server sponsors it and makes the studio, and the owner signs its typed message
 * after reading it; the studio exists once the operation is on-chain. Then the server's signer is let
 * issue and cancel for the studio (SPEC 4.4, 4.5): its StartSession, read and signed the same way.
 */
export function VaultSetupView({ api, t, onCreated }: { api: Api; t: DashboardStrings; onCreated: () => void }) {
  const { signing, notice, start, panel } = useOwnerSigning(t)
  const [created, setCreated] = useState<Submitted | null>(null)

  function create(event: SubmitEvent) {
    event.preventDefault()
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('studioName') ?? '').trim()
    const vaultOf = async (owner: `0x${string}`) => {
      const wallet = await loadOwnerWallet()
      return { vaultAddress: await wallet.predictedVault(owner), vaultChainId: wallet.tokenOfDeployment.chainId }
    }
    start({
      vaultOf,
      async prepare(owner) {
        const wallet = await loadOwnerWallet()
        const { vaultAddress, vaultChainId } = await vaultOf(owner)
        return api.json<PreparedOperation>('POST', '/v1/studios/prepare', { name: name || null, chainId: vaultChainId, userOp: wallet.vaultDeployment(owner, vaultAddress) })
      },
      async submit(userOp) {
        const chainId = (await loadOwnerWallet()).tokenOfDeployment.chainId
        const answer = await untilSettled(() => api.json<Submitted>('POST', '/v1/studios/submit', { name: name || null, chainId, userOp }))
        if (answer.status !== 'deployed') return t.pending
        setCreated(answer)
        return t.setup.created(answer.vaultAddress)
      },
    })
  }

  if (created) return <SignerActivation api={api} t={t} studio={created} vaultNotice={notice} onDone={onCreated} />
  return (
    <>
      <h1>{t.setup.heading}</h1>
      <p>{t.setup.intro}</p>
      <form onSubmit={create}>
        <Field id="studioName" label={t.setup.studioName} autoComplete="organization" maxLength={100} />
        <div class="actions">
          <button type="submit" disabled={signing}>{t.setup.create}</button>
        </div>
      </form>
      {panel}
      <Notice message={notice} />
    </>
  )
}

/** The second step: the owner lets the server's signer issue and cancel invoices for the new studio
 * (its StartSession, from GET /signer/status), or leaves it for later. */
function SignerActivation({ api, t, studio, vaultNotice, onDone }: { api: Api; t: DashboardStrings; studio: Submitted; vaultNotice: string | null; onDone: () => void }) {
  const { signing, notice, start, panel } = useOwnerSigning(t, vaultNotice)
  const [active, setActive] = useState(false)
  const vault = { vaultAddress: studio.vaultAddress, vaultChainId: 0 }

  function activate() {
    start({
      async vaultOf() {
        return { ...vault, vaultChainId: (await loadOwnerWallet()).tokenOfDeployment.chainId }
      },
      async prepare() {
        const status = await api.json<SignerStatus>('GET', `/v1/studios/${studio.studioId}/signer/status`)
        if (!status.activation) throw new Error(status.activation_error ?? t.signerSetup.noActivation(status.status))
        return { userOp: status.activation.user_op, typedDataToSign: status.activation.user_op.typedDataToSign }
      },
      async submit(signedUserOp) {
        const answer = await untilSettled(
          () => api.json<{ status: string }>('POST', `/v1/studios/${studio.studioId}/api-keys/activate-signer`, { signed_user_op: signedUserOp }),
          (sent) => sent.status !== 'active',
        )
        if (answer.status !== 'active') return t.pending
        setActive(true)
        return t.signerSetup.active
      },
    })
  }

  return (
    <>
      <h1>{t.signerSetup.heading}</h1>
      <Notice message={notice} />
      <p>{t.signerSetup.intro}</p>
      <div class="actions">
        {active ? (
          <button type="button" onClick={onDone}>{t.signerSetup.next}</button>
        ) : (
          <>
            <button type="button" disabled={signing} onClick={activate}>{t.signerSetup.activate}</button>
            <button type="button" class="secondary" disabled={signing} onClick={onDone}>{t.signerSetup.later}</button>
          </>
        )}
      </div>
      {panel}
    </>
  )
}

/** An owner operation of the first run: the signing panel takes over until the message is signed
 * and sent, or not; the problem shows under it and the notice where each step puts it. */
function useOwnerSigning(t: DashboardStrings, firstNotice: string | null = null) {
  const [operation, setOperation] = useState<OwnerOperation | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(firstNotice)
  function start(work: OwnerOperation) {
    setProblem(null)
    setNotice(null)
    setOperation(work)
  }
  const panel = (
    <>
      <OwnerSignature
        t={t}
        studio={null}
        operation={operation}
        onFinished={({ notice: said, problem: failed }) => {
          setOperation(null)
          setProblem(failed ?? null)
          setNotice(said ?? null)
        }}
      />
      <Problem message={problem} />
    </>
  )
  return { signing: operation !== null, notice, start, panel }
}
