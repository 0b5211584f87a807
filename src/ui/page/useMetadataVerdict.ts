import { useEffect, useState } from 'preact/hooks'
import type { InvoiceMetadata } from '../../../shared/metadata'
import { hashMetadata } from '../../../shared/metadataHash'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import type { MetadataVerdict, metadataVerdict } from './metadataVerdict'
import { receivedRecord } from './readableMetadata'

type Judge = typeof metadataVerdict

let loaded: Judge | null = null
let loading: Promise<Judge> | null = null

/**
 * The record's check is a chunk of its own, not in the page's first chunks (test/size/ holds their
 * budget): with Unicode's confusables for the names and the record's hash it is asked for once the page
 * has a record to check, while the chain is still being read. Once; again after a failed load.
 */
export function loadMetadataVerdict(): Promise<Judge> {
  loading ??= import('./metadataVerdict').then(
    (module) => (loaded = module.metadataVerdict),
    (error: unknown) => {
      loading = null
      throw error
    },
  )
  return loading
}

// the record's hash, the costly part of a verdict the page renders every second while a permit counts
// down, once per received record; taken here, with the keccak the page already has for addresses
const hashes = new WeakMap<InvoiceMetadata, string>()

function receivedHash(shown: InvoiceMetadata): string {
  const received = receivedRecord(shown)
  let hash = hashes.get(received)
  if (hash === undefined) hashes.set(received, (hash = hashMetadata(received)))
  return hash
}

/** A failed load is asked for again while the record is shown: until the check has run, nothing in
 * the record is called checked. */
const retryMs = 2_000

/** The verdict on the shown record (null without one, or without an invoice): `unconfirmed` until the
 * chain has been read and the check has arrived, `withdrawn` at once when the chain disproved the invoice. */
export function useMetadataVerdict(metadata: InvoiceMetadata | null, invoice: ShownInvoice | null, deployment: PinnedDeployment): MetadataVerdict | null {
  const [, arrived] = useState(loaded !== null)
  const wanted = metadata !== null
  useEffect(() => {
    if (!wanted || loaded) return
    let live = true
    let retry: ReturnType<typeof setTimeout> | undefined
    const load = () =>
      void loadMetadataVerdict().then(
        () => live && arrived(true),
        () => {
          if (live) retry = setTimeout(load, retryMs)
        },
      )
    load()
    return () => {
      live = false
      clearTimeout(retry)
    }
  }, [wanted])
  if (!metadata || !invoice) return null
  if (invoice.disproved) return { kind: 'withdrawn' }
  if (!loaded || !invoice.confirmed) return { kind: 'unconfirmed' }
  return loaded(metadata, receivedHash(metadata), invoice, deployment)
}
