import { Webhook } from 'standardwebhooks'

export type WebhookHeadersParameters = { webhookId: string; timestamp: Date; body: string; secrets: readonly string[] }

/**
 * Standard Webhooks' headers for one attempt: the id (the same on every retry, for the receiver to
 * deduplicate on), the time of this attempt, and one `v1,` signature per secret that signs now,
 * separated by spaces: during a rotation the receiver may still hold either secret.
 */
export function webhookHeaders({ webhookId, timestamp, body, secrets }: WebhookHeadersParameters): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'svc-checkout-webhooks/1',
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(webhookId, timestamp, body)).join(' '),
  }
}
