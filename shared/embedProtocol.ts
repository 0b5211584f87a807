/**
 * The postMessage protocol between a host page (the loader) and the pay page in its iframe. Every
 * message carries `svc: 1` and the instance id, is sent to one explicit origin and is checked on
 * receipt against the expected origin, source window and instance; anything else is ignored.
 * Validation is written out by hand: the loader has a 1.5 KB budget that a schema library would eat.
 */

export const protocolVersion = 1

export type WalletInfo = { uuid: string; name: string; icon: string; rdns: string }
export type RpcError = { code: number; message: string }

/** Events the host can subscribe to (`on(name, fn)` and DOM CustomEvents `svc-checkout:<name>`). */
export type CheckoutEvents = {
  ready: { invoiceId: string }
  paid: { invoiceId: string; userOpHash: string; txHash: string }
  pending: { invoiceId: string; userOpHash: string }
  expired: { invoiceId: string }
  error: { invoiceId: string; code: string }
}
export type CheckoutEventName = keyof CheckoutEvents

/** Pay page → host. */
export type FrameMessage =
  | { [K in CheckoutEventName]: { type: K; detail: CheckoutEvents[K] } }[CheckoutEventName]
  | { type: 'resize'; height: number }
  | { type: 'wallet:list' }
  | { type: 'wallet:request'; rid: number; uuid: string; method: string; params: unknown[] }

/** Host → pay page. */
export type HostMessage =
  | { type: 'wallet:providers'; providers: WalletInfo[]; hostOrigin: string }
  | { type: 'wallet:response'; rid: number; result?: unknown; error?: RpcError }
  | { type: 'wallet:event'; uuid: string; event: 'accountsChanged' | 'chainChanged' | 'disconnect'; data: unknown }

export type Envelope<M> = M & { svc: typeof protocolVersion; id: string }

/** The operation signature over the bridge: the frame sends the whole operation, never a bare hash;
 * the host verifies it, computes the hash itself and has its wallet sign the operation's Payment
 * message (eth_signTypedData_v4), which it builds from what it verified. */
export const bridgedSignUserOperation = 'svc_signUserOperation'

/** The only methods a payment needs: the bridge relays these and refuses everything else. Not
 * personal_sign or eth_sign (a bare hash could be anything's; nothing in a payment asks for one),
 * nor wallet_addEthereumChain (a frame could have the host's wallet add a chain with an RPC of its
 * choosing; the payer adds the pinned chain itself). */
export const bridgedMethods = [
  'eth_requestAccounts',
  'eth_accounts',
  'eth_chainId',
  'wallet_switchEthereumChain',
  'eth_signTypedData_v4',
  bridgedSignUserOperation,
  // a smart wallet's one-prompt payment (EIP-5792): the batch and its status only as the host rebuilt
  // and sent it (embed/hostCalls.ts)
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'eth_call',
  'eth_getCode',
  'eth_getLogs',
  'eth_getBlockByNumber',
  'eth_blockNumber',
] as const

const isString = (value: unknown): value is string => typeof value === 'string'
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

function hasStrings(detail: unknown, keys: string[]): boolean {
  return isRecord(detail) && keys.every((key) => isString(detail[key]) && (detail[key] as string).length <= 200)
}

const checkoutEvents = ['ready', 'paid', 'pending', 'expired', 'error']

// An event's detail as the frame sends it, field by field and nothing else: a host acts on these
// (marks an order paid, shows a code), so a frame cannot hand it markup, long text or a hash that is
// not one. Matched on the detail's JSON, which spells a quote inside a string as \", so no field can
// close its quotes early. A hash may be empty (paid by someone else: no operation of this checkout's);
// a code is an upper-case word. The loader holds the invoice id to the one it mounted, and a well-formed
// `paid` is still only the frame's word: the host passes it on once the pinned chain shows it
// (embed/hostPaid.ts). One pattern for every event: the loader's budget has no room for one each.
const eventDetail = /^\{("(invoiceId":"\d{1,78}|(userOpHash|txHash)":"(0x[\da-fA-F]{64})?|code":"[A-Z_]{1,40})",?)+\}$/

/** The tallest the frame may make itself: a checkout is never taller than this, and a frame that asks
 * for more (to push the host's page down) is held to it and scrolls inside. */
export const maxFrameHeight = 4000

/** A frame message for this instance, or undefined for anything malformed or foreign. */
export function readFrameMessage(data: unknown, id: string): FrameMessage | undefined {
  // nothing but an object carries svc: 1, so no isRecord (the loader's size budget); the type is only
  // ever compared with strings of ours: no type check of its own
  const message = data as Record<string, unknown> | null | undefined
  if (message?.svc !== protocolVersion || message.id !== id) return undefined
  const type = message.type as string
  const ok =
    checkoutEvents.includes(type)
      ? eventDetail.test(JSON.stringify(message.detail))
      : // held to maxFrameHeight where it is applied
        type === 'resize'
        ? typeof message.height === 'number' && message.height >= 0
        : // the wallet bridge reads its own requests (readWalletRequest): the loader carries no more than it needs
          /^wallet:(list|request)$/.test(type)
  return ok ? (message as FrameMessage) : undefined
}

/** A wallet request from the frame as the bridge relays it, or undefined when malformed. */
export function readWalletRequest(message: FrameMessage): Extract<FrameMessage, { type: 'wallet:request' }> | undefined {
  const data = message as Record<string, unknown>
  const ok = Number.isInteger(data.rid) && isString(data.uuid) && isString(data.method) && Array.isArray(data.params)
  return message.type === 'wallet:request' && ok ? message : undefined
}

/** A host message for this instance, or undefined for anything malformed or foreign. */
export function readHostMessage(data: unknown, id: string): HostMessage | undefined {
  if (!isRecord(data) || data.svc !== protocolVersion || data.id !== id || !isString(data.type)) return undefined
  switch (data.type) {
    case 'wallet:providers':
      return Array.isArray(data.providers) && data.providers.every((p) => hasStrings(p, ['uuid', 'name', 'rdns']) && isString((p as WalletInfo).icon)) && isString(data.hostOrigin)
        ? (data as HostMessage)
        : undefined
    case 'wallet:response':
      return Number.isInteger(data.rid) && (data.error === undefined || (isRecord(data.error) && typeof data.error.code === 'number')) ? (data as HostMessage) : undefined
    case 'wallet:event':
      return isString(data.uuid) && ['accountsChanged', 'chainChanged', 'disconnect'].includes(data.event as string) ? (data as HostMessage) : undefined
    default:
      return undefined
  }
}
