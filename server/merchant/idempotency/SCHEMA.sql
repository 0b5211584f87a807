-- Idempotency records for invoice creation (SPEC 7.4), for migration 13. One row per studio, chain,
-- route and Idempotency-Key: the primary key is what lets two server instances racing one key agree
-- on a single operation. Every transition is one statement, or a transaction holding the row's lock
-- (server/merchant/idempotency/idempotencyStore.ts); no instance keeps any of this in memory.
--
-- state:
--   started              a request holds the lease and builds the operation; nothing has been sent
--   submitting           the operation is being handed to the bundler; user_op_hash, when set, is the
--                        hash it will have, which the bundler has not confirmed
--   submitted            the bundler took the operation (user_op_hash), the request still waits on it
--   pending              202 was answered; repeating the POST repolls the same operation
--   confirmed            the 200 answer is kept in `answer` and replayed to every retry
--   finalization_failed  the invoice exists on-chain (invoice_id, tx_hash) but finalization failed
-- lease_owner / lease_until: which request works on the row, until when (the database's clock). A
-- lease that ran out is taken over by a retry, except in `submitting`: then nobody knows whether the
-- operation went out. The retry looks for user_op_hash on-chain when it is set, and carries on if it
-- is there; otherwise it is told so (IDEMPOTENCY_SUBMISSION_UNCERTAIN), and nothing is built again.
-- created_at anchors dueDays: a retry a day later computes the same dueAt.
CREATE TABLE idempotency_records (
  studio_id uuid NOT NULL,
  chain_id integer NOT NULL CHECK (chain_id > 0),
  route text NOT NULL CHECK (route ~ '^[a-z][a-z0-9._-]{0,63}$'),
  idempotency_key text NOT NULL CHECK (idempotency_key ~ '^[!-~]{1,128}$'),
  fingerprint text NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
  state text NOT NULL CHECK (state IN ('started', 'submitting', 'submitted', 'pending', 'confirmed', 'finalization_failed')),
  lease_owner text CHECK (char_length(lease_owner) <= 64),
  lease_until timestamptz,
  user_op_hash text CHECK (user_op_hash ~ '^0x[0-9a-f]{64}$'),
  invoice_id numeric(78, 0) CHECK (invoice_id >= 0),
  tx_hash text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  work jsonb,
  answer jsonb,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  PRIMARY KEY (studio_id, chain_id, route, idempotency_key),
  CONSTRAINT idempotency_records_hash_known CHECK (state NOT IN ('submitted', 'pending') OR user_op_hash IS NOT NULL),
  CONSTRAINT idempotency_records_answer_kept CHECK (state <> 'confirmed' OR answer IS NOT NULL),
  CONSTRAINT idempotency_records_invoice_known CHECK (state <> 'finalization_failed' OR (invoice_id IS NOT NULL AND tx_hash IS NOT NULL))
);
