import { useEffect, useState } from 'preact/hooks'
import { baseUnitsOf, type Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import type { PreparedOperation } from '../wallet/ownerWallet'
import { errorText, Field, Notice, Problem } from './Field'
import { OwnerSignature, useStudio, type OwnerOperation } from './OwnerSignature'
import { localAmount, localMoment } from '../localFormat'

type Balance = { balance: string; formatted: string; symbol: string; decimals: number }
type Withdrawal = { id: string; amount: string; amountFormatted: string; destination: string; status: string; createdAt: string }
type Submitted = { status: string }

/**
 * The vault's balance and what leaves it (SPEC 4.17): the withdrawal address the owner sets (the only
 * place a withdrawal can go), an amount signed out in the owner's wallet, and the history.
 */
export function WithdrawalsView({ api, t }: { api: Api; t: DashboardStrings }) {
  const studio = useStudio(api)
  const [balance, setBalance] = useState<Balance | null>(null)
  const [address, setAddress] = useState<string | null | undefined>(undefined)
  const [history, setHistory] = useState<Withdrawal[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [operation, setOperation] = useState<OwnerOperation | null>(null)
  const load = async () => {
    const [figures, list] = await Promise.all([
      api.json<Balance>('GET', '/v1/studios/me/balance'),
      api.json<{ data: { items: Withdrawal[] } }>('GET', '/v1/withdrawals?limit=20'),
    ])
    setBalance(figures)
    setHistory(list.data.items)
  }
  useEffect(() => {
    load().catch((error: unknown) => setProblem(errorText(error)))
  }, [])
  useEffect(() => {
    if (!studio) return
    api
      .json<{ address: string | null }>('GET', `/v1/studios/${studio.id}/withdrawal-address`)
      .then((answer) => setAddress(answer.address))
      .catch((error: unknown) => setProblem(errorText(error)))
  }, [studio])

  async function saveAddress(event: SubmitEvent) {
    event.preventDefault()
    setProblem(null)
    setNotice(null)
    const typed = String(new FormData(event.currentTarget as HTMLFormElement).get('withdrawalAddress') ?? '').trim()
    try {
      const answer = await api.json<{ address: string }>('PUT', `/v1/studios/${studio!.id}/withdrawal-address`, { address: typed })
      setAddress(answer.address)
      setNotice(t.wallet.addressSaved)
    } catch (error) {
      setProblem(errorText(error))
    }
  }

  function withdraw(event: SubmitEvent) {
    event.preventDefault()
    const typed = String(new FormData(event.currentTarget as HTMLFormElement).get('withdrawAmount') ?? '')
    const amount = baseUnitsOf(typed, balance?.decimals)
    setProblem(null)
    setNotice(null)
    if (!amount) return setProblem(t.wallet.amountInvalid(typed))
    setOperation({
      prepare: (owner) => api.json<PreparedOperation>('POST', '/v1/withdrawals/prepare', { ownerAddress: owner, amount }),
      async submit(userOp) {
        const answer = await api.json<Submitted>('POST', '/v1/withdrawals', { userOp })
        return answer.status === 'confirmed' ? t.wallet.withdrawn(`${typed} ${balance?.symbol ?? ''}`.trim()) : t.pending
      },
    })
  }

  return (
    <>
      <h1>{t.withdrawals}</h1>
      <p class="balance">{balance ? t.wallet.balance(`${balance.formatted} ${balance.symbol}`) : t.loading}</p>
      <h2>{t.wallet.withdrawalAddress}</h2>
      <p class="share">{address === undefined ? t.loading : address ?? t.wallet.noWithdrawalAddress}</p>
      <form onSubmit={(event) => void saveAddress(event)}>
        <Field id="withdrawalAddress" label={t.wallet.newWithdrawalAddress} required autoComplete="off" spellcheck={false} />
        <div class="actions">
          <button type="submit" class="secondary" disabled={!studio}>{t.wallet.saveAddress}</button>
        </div>
      </form>
      <h2>{t.wallet.withdraw}</h2>
      <form onSubmit={withdraw}>
        <Field id="withdrawAmount" label={t.wallet.withdrawAmount(balance?.symbol ?? 'USDC')} required inputMode="decimal" autoComplete="off" />
        <div class="actions">
          <button type="submit" disabled={operation !== null || !address}>{t.wallet.withdrawSubmit}</button>
        </div>
      </form>
      <OwnerSignature
        t={t}
        studio={studio}
        operation={operation}
        onFinished={({ notice: said, problem: failed }) => {
          setOperation(null)
          setProblem(failed ?? null)
          setNotice(said ?? null)
          if (said) load().catch(() => {})
        }}
      />
      <Problem message={problem} />
      <Notice message={notice} />
      <h2>{t.wallet.withdrawalHistory}</h2>
      {history === null ? (
        <p>{t.loading}</p>
      ) : history.length === 0 ? (
        <p>{t.wallet.noWithdrawals}</p>
      ) : (
        <div class="table" role="region" aria-label={t.table(t.wallet.withdrawalHistory)} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t.wallet.when}</th>
                <th scope="col">{t.amountColumn}</th>
                <th scope="col">{t.wallet.destination}</th>
                <th scope="col">{t.status}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((row) => (
                <tr key={row.id}>
                  <td>{localMoment(row.createdAt, t.lang)}</td>
                  <td>
                    <bdi>
                      {balance ? localAmount(row.amount, t.lang, balance.decimals) : row.amountFormatted} {balance?.symbol ?? ''}
                    </bdi>
                  </td>
                  <td class="share">{row.destination}</td>
                  <td>{t.wallet.withdrawalStatuses[row.status] ?? row.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
