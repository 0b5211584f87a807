import { lockForTransaction, QueryError, type Database, type Queryable } from './database'
import { StoreError } from './storeError'

/** One step of the schema. Applied steps are never edited: a change is a new, higher version. */
export type Migration = { version: number; name: string; statements: readonly string[] }

export class MigrationOrderError extends StoreError {
  override name = 'MigrationOrderError'
  readonly code = 'MIGRATION_ORDER'
}

const address = (column: string) => `${column} text NOT NULL CHECK (${column} ~ '^0x[0-9a-f]{40}$')`
const bytes32 = (column: string) => `${column} text NOT NULL CHECK (${column} ~ '^0x[0-9a-f]{64}$')`
const invoiceKey = `chain_id integer NOT NULL CHECK (chain_id > 0),
  ${address('registry')},
  invoice_id numeric(78, 0) NOT NULL CHECK (invoice_id >= 0)`

/** The NOTIFY channel migration 6 announces changed access tokens on. */
export const tokensChangedChannel = 'invoice_access_tokens_changed'

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    statements: [
      `CREATE TABLE studios (
        id uuid PRIMARY KEY,
        name text CHECK (char_length(name) <= 100),
        chain_id integer NOT NULL CHECK (chain_id > 0),
        ${address('vault_address')},
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT studios_vault_unique UNIQUE (chain_id, vault_address)
      )`,
      // status is not a column: it is whether revoked_at is set, so the two cannot disagree.
      `CREATE TABLE api_keys (
        key_id text PRIMARY KEY CHECK (key_id ~ '^svc_pk_[A-Za-z0-9_-]+$'),
        studio_id uuid NOT NULL REFERENCES studios (id),
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        scopes text[] NOT NULL CHECK (cardinality(scopes) > 0),
        secret_ciphertext bytea NOT NULL,
        secret_iv bytea NOT NULL CHECK (octet_length(secret_iv) = 12),
        secret_hint text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz
      )`,
      'CREATE INDEX api_keys_studio ON api_keys (studio_id)',
      `CREATE TABLE invoice_metadata (
        ${invoiceKey},
        ciphertext bytea NOT NULL,
        iv bytea NOT NULL CHECK (octet_length(iv) = 12),
        ${bytes32('meta_hash')},
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (chain_id, registry, invoice_id)
      )`,
      // statement_timestamp(), not now(): a regeneration can wait on another's lock, and its token
      // must not look older than the one it replaces.
      `CREATE TABLE invoice_access_tokens (
        token_id uuid PRIMARY KEY,
        ${invoiceKey},
        token_hash bytea NOT NULL CHECK (octet_length(token_hash) = 32),
        hint text NOT NULL,
        label text,
        is_default boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        expires_at timestamptz,
        revoked_at timestamptz,
        CONSTRAINT invoice_access_tokens_hash_unique UNIQUE (token_hash)
      )`,
      'CREATE INDEX invoice_access_tokens_invoice ON invoice_access_tokens (chain_id, registry, invoice_id)',
      `CREATE UNIQUE INDEX invoice_access_tokens_one_default ON invoice_access_tokens (chain_id, registry, invoice_id)
        WHERE is_default AND revoked_at IS NULL`,
      `CREATE TABLE prepared_payments (
        ${bytes32('user_op_hash')} PRIMARY KEY,
        ${invoiceKey},
        ${address('payer')},
        ${address('owner')},
        user_op jsonb NOT NULL,
        permit_deadline numeric(78, 0) NOT NULL,
        permit_v smallint NOT NULL CHECK (permit_v BETWEEN 0 AND 255),
        ${bytes32('permit_r')},
        ${bytes32('permit_s')},
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE payment_submissions (
        user_op_hash text PRIMARY KEY REFERENCES prepared_payments (user_op_hash),
        state text NOT NULL CHECK (state IN ('submitting', 'submitted', 'confirmed', 'failed')),
        attempts integer NOT NULL CHECK (attempts > 0),
        bundler_ref text,
        tx_hash text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((state = 'confirmed') = (tx_hash IS NOT NULL)),
        CHECK ((state = 'failed') = (failure_reason IS NOT NULL))
      )`,
      `CREATE TABLE hmac_nonces (
        key_id text NOT NULL,
        nonce text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (key_id, nonce)
      )`,
      'CREATE INDEX hmac_nonces_expiry ON hmac_nonces (expires_at)',
    ],
  },
  {
    version: 2,
    name: 'recoverable default share tokens',
    statements: [
      // GET share must show the current share link, which a hash cannot give back: the default token
      // alone is also kept encrypted, and only while it is unrevoked.
      `ALTER TABLE invoice_access_tokens
        ADD COLUMN share_token_ciphertext bytea,
        ADD COLUMN share_token_iv bytea,
        ADD CONSTRAINT invoice_access_tokens_share_token CHECK (
          (share_token_ciphertext IS NULL AND share_token_iv IS NULL)
          OR (is_default AND revoked_at IS NULL AND share_token_ciphertext IS NOT NULL AND octet_length(share_token_iv) = 12)
        )`,
    ],
  },
  {
    version: 3,
    name: 'token creation order',
    statements: [
      // PGlite's clock ticks in milliseconds, so tokens made back to back can share a created_at.
      'ALTER TABLE invoice_access_tokens ADD COLUMN created_order bigint GENERATED ALWAYS AS IDENTITY',
    ],
  },
  {
    version: 4,
    name: 'api key creation order',
    statements: [
      // the same for keys: two made in one millisecond listed in either order (seen on a clean clone)
      'ALTER TABLE api_keys ADD COLUMN created_order bigint GENERATED ALWAYS AS IDENTITY',
    ],
  },
  {
    version: 5,
    name: 'submission reconciliation',
    statements: [
      // The payer's signature is kept so that an operation a bundler dropped can be sent again exactly
      // as signed; `lost`: it can no longer be included (permit lapsed, invoice settled, nonce used).
      // The lease is the reconciler's row-level claim: whoever holds an unexpired one checks the row.
      `ALTER TABLE payment_submissions
        ADD COLUMN signature text CHECK (signature ~ '^0x[0-9a-f]{130}$'),
        ADD COLUMN resubmissions integer NOT NULL DEFAULT 0 CHECK (resubmissions >= 0),
        ADD COLUMN reconcile_claimed_by text,
        ADD COLUMN reconcile_lease_until timestamptz,
        DROP CONSTRAINT payment_submissions_state_check,
        ADD CONSTRAINT payment_submissions_state_check CHECK (state IN ('submitting', 'submitted', 'confirmed', 'failed', 'lost'))`,
      `CREATE INDEX payment_submissions_unsettled ON payment_submissions (updated_at) WHERE state IN ('submitting', 'submitted')`,
    ],
  },
  {
    version: 6,
    name: 'access token change notifications',
    statements: [
      // A server that remembers which tokens open which invoice (server/store/metadataAccess.ts) hears
      // of every revocation, expiry change or removal, whoever made it: the payload is the invoice's
      // key as invoiceKeyString spells it. Sent on COMMIT, so a rolled-back change is never heard.
      `CREATE FUNCTION invoice_access_tokens_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('${tokensChangedChannel}', OLD.chain_id || ':' || OLD.registry || ':' || OLD.invoice_id);
          RETURN NULL;
        END
      $$`,
      `CREATE TRIGGER invoice_access_tokens_changed AFTER UPDATE OR DELETE ON invoice_access_tokens
        FOR EACH ROW EXECUTE FUNCTION invoice_access_tokens_changed()`,
    ],
  },
  {
    version: 7,
    name: 'prepared payment expiry',
    statements: [
      // every instance looks for expired prepared payments each minute (server/payments/preparedPruning.ts)
      'CREATE INDEX prepared_payments_expiry ON prepared_payments (expires_at)',
    ],
  },
  {
    version: 8,
    name: 'sponsorship limits',
    statements: [
      // Every operation this server had the paymaster sponsor, while its window lasts: what the limits
      // count (server/payments/sponsorshipLimiter.ts). No reference to prepared_payments: an operation
      // sponsored for a wallet is recorded here too. client_key is a hash: equality is all it is for.
      `CREATE TABLE sponsorships (
        ${bytes32('user_op_hash')} PRIMARY KEY,
        ${invoiceKey},
        ${address('sender')},
        ${address('owner')},
        ${bytes32('client_key')},
        valid_until timestamptz NOT NULL,
        superseded boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX sponsorships_invoice ON sponsorships (chain_id, registry, invoice_id, valid_until) WHERE NOT superseded',
      'CREATE INDEX sponsorships_owner ON sponsorships (owner, valid_until) WHERE NOT superseded',
      'CREATE INDEX sponsorships_client ON sponsorships (client_key, valid_until) WHERE NOT superseded',
      'CREATE INDEX sponsorships_expiry ON sponsorships (valid_until)',
    ],
  },
  {
    version: 9,
    name: 'webhooks',
    statements: [
      // A merchant's receivers (server/routes/webhookRoutes.ts). Removing one removes its secrets and
      // whatever it had still to receive.
      `CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        studio_id uuid NOT NULL REFERENCES studios (id),
        url text NOT NULL CHECK (char_length(url) <= 2048),
        events text[] NOT NULL CHECK (cardinality(events) > 0),
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_order bigint GENERATED ALWAYS AS IDENTITY
      )`,
      'CREATE INDEX webhook_endpoints_studio ON webhook_endpoints (studio_id)',
      // Each signing secret is a row: a rotation keeps the old one signing until expires_at (the
      // current one has none), and each is sealed under a context naming its own id.
      `CREATE TABLE webhook_secrets (
        id uuid PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        ciphertext bytea NOT NULL,
        iv bytea NOT NULL CHECK (octet_length(iv) = 12),
        created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        expires_at timestamptz
      )`,
      'CREATE INDEX webhook_secrets_endpoint ON webhook_secrets (endpoint_id)',
      // How far the registry's logs have been read, with the hash of the last block read: a hash that
      // changed under it is a reorganisation deeper than the confirmations waited for.
      `CREATE TABLE webhook_cursors (
        chain_id integer NOT NULL CHECK (chain_id > 0),
        ${address('registry')},
        next_block numeric(78, 0) NOT NULL CHECK (next_block >= 0),
        last_block_hash text CHECK (last_block_hash ~ '^0x[0-9a-f]{64}$'),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (chain_id, registry)
      )`,
      // One row per registry log, whichever instance read it first: the unique key is the log's place
      // on the chain, so a second reader enqueues nothing.
      `CREATE TABLE webhook_events (
        id uuid PRIMARY KEY,
        chain_id integer NOT NULL CHECK (chain_id > 0),
        ${address('registry')},
        ${bytes32('tx_hash')},
        log_index integer NOT NULL CHECK (log_index >= 0),
        block_number numeric(78, 0) NOT NULL,
        ${address('merchant')},
        type text NOT NULL CHECK (type IN ('invoice.paid', 'invoice.canceled')),
        -- the body exactly as signed and sent, every attempt alike: jsonb would reorder its keys
        payload text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_events_log_unique UNIQUE (chain_id, registry, tx_hash, log_index)
      )`,
      // The outbox: one row per event and endpoint. The lease is one instance's claim while it sends;
      // an instance killed mid-send leaves it to run out.
      `CREATE TABLE webhook_deliveries (
        event_id uuid NOT NULL REFERENCES webhook_events (id),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        leased_by text,
        lease_until timestamptz,
        last_status integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        PRIMARY KEY (event_id, endpoint_id)
      )`,
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'`,
    ],
  },
  {
    version: 10,
    name: 'studio branding',
    statements: [
      // A studio's colour and logo for its payers' pages (server/store/brandingStore.ts). The logo is
      // kept here, not fetched from anywhere: it is served from this origin under its SHA-256. Its
      // columns are all set or all null.
      `CREATE TABLE studio_branding (
        studio_id uuid PRIMARY KEY REFERENCES studios (id) ON DELETE CASCADE,
        brand_color text NOT NULL CHECK (brand_color ~ '^#[0-9a-f]{6}$'),
        logo bytea CHECK (octet_length(logo) BETWEEN 1 AND 65536),
        logo_type text CHECK (logo_type IN ('image/png', 'image/jpeg', 'image/webp')),
        logo_sha256 text CHECK (logo_sha256 ~ '^[0-9a-f]{64}$'),
        logo_width integer CHECK (logo_width BETWEEN 1 AND 1024),
        logo_height integer CHECK (logo_height BETWEEN 1 AND 1024),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (num_nulls(logo, logo_type, logo_sha256, logo_width, logo_height) IN (0, 5))
      )`,
      'CREATE INDEX studio_branding_logo ON studio_branding (logo_sha256) WHERE logo_sha256 IS NOT NULL',
    ],
  },
  {
    version: 11,
    name: 'sponsorships by nonce',
    statements: [
      // An operation replaces an older sponsorship only when both carry the same EntryPoint, sender
      // and nonce (key and sequence): of those, at most one can ever run. Rows from before this step
      // have neither and are replaced by nothing; their windows end within minutes.
      `ALTER TABLE sponsorships ADD COLUMN entry_point text CHECK (entry_point ~ '^0x[0-9a-f]{40}$')`,
      'ALTER TABLE sponsorships ADD COLUMN nonce numeric(78, 0) CHECK (nonce >= 0)',
      'CREATE INDEX sponsorships_nonce ON sponsorships (sender, entry_point, nonce) WHERE NOT superseded',
    ],
  },
  {
    version: 12,
    name: 'customers and business profiles',
    statements: [
      // A studio's billing records (SPEC 2.7; server/merchant/customers/customerStore.ts). A deleted
      // customer is kept (deleted_at), and its name stays taken: SPEC 7.3 answers CUSTOMER_EXISTS with
      // existingCustomerId null for it. legal_name_key is the name as the studio's names are compared
      // (trimmed, inner spaces single, NFC, lower case), computed by the store: PostgreSQL's lower()
      // depends on the cluster's locale, and PGlite's folds ASCII only.
      `CREATE TABLE customers (
        id uuid PRIMARY KEY,
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('entity', 'person')),
        legal_name text NOT NULL CHECK (char_length(legal_name) BETWEEN 1 AND 200),
        legal_name_key text NOT NULL CHECK (char_length(legal_name_key) >= 1),
        email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
        street text NOT NULL CHECK (char_length(street) >= 1),
        city text NOT NULL CHECK (char_length(city) >= 1),
        postal text NOT NULL CHECK (char_length(postal) >= 1),
        country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
        registration_number text CHECK (char_length(registration_number) >= 1),
        trade_name text CHECK (char_length(trade_name) >= 1),
        tax_id text CHECK (char_length(tax_id) >= 1),
        vat_number text CHECK (char_length(vat_number) >= 1),
        notes text CHECK (char_length(notes) >= 1),
        wallet_address text CHECK (wallet_address ~ '^0x[0-9a-f]{40}$'),
        metadata jsonb,
        created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        deleted_at timestamptz,
        CHECK (type = 'person' OR registration_number IS NOT NULL),
        CHECK (type = 'entity' OR trade_name IS NULL),
        CHECK (type = 'person' OR tax_id IS NULL),
        CONSTRAINT customers_name_unique UNIQUE (studio_id, legal_name_key)
      )`,
      // the list's order (oldest first) and its filters within one studio
      'CREATE INDEX customers_studio_live ON customers (studio_id, created_at, id) WHERE deleted_at IS NULL',
      'CREATE INDEX customers_studio_wallet ON customers (studio_id, wallet_address) WHERE deleted_at IS NULL AND wallet_address IS NOT NULL',
      // SPEC 2.7: a customer's type is fixed at creation, whoever writes the row
      `CREATE FUNCTION customers_type_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.type <> OLD.type THEN RAISE EXCEPTION 'a customer''s type cannot change' USING ERRCODE = 'check_violation'; END IF;
          RETURN NEW;
        END
      $$`,
      'CREATE TRIGGER customers_type_fixed BEFORE UPDATE ON customers FOR EACH ROW EXECUTE FUNCTION customers_type_fixed()',
      // SPEC 2.2: the studio's own party on its invoices. Every field may be missing (a studio starts
      // without one); whether it is complete enough to issue is a rule of the code
      // (server/merchant/profile/profileComplete.ts), not of the table.
      `CREATE TABLE business_profiles (
        studio_id uuid PRIMARY KEY REFERENCES studios (id) ON DELETE CASCADE,
        type text CHECK (type IN ('entity', 'person')),
        legal_name text CHECK (char_length(legal_name) <= 200),
        email text CHECK (char_length(email) <= 254),
        street text CHECK (char_length(street) <= 200),
        city text CHECK (char_length(city) <= 100),
        postal text CHECK (char_length(postal) <= 20),
        country text CHECK (country ~ '^[A-Z]{2}$'),
        registration_number text,
        vat_number text,
        trade_name text,
        tax_id text,
        updated_at timestamptz NOT NULL DEFAULT statement_timestamp()
      )`,
    ],
  },
  {
    version: 13,
    name: 'idempotency records and server-signed issuance',
    statements: [
      // SPEC 7.4: one row per studio, chain, route and Idempotency-Key; its states and leases are
      // described in server/merchant/idempotency/SCHEMA.sql, where its module keeps them.
      `CREATE TABLE idempotency_records (
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
      )`,
      // Each server-signed issuance (POST /v1/invoices/issue), from the moment its operation is built:
      // the userOpHash is known before anything is sent, so an issuance whose receipt came too late
      // (202) is found again and finalized by its hash. Until then the invoice's metadata is kept
      // sealed here (the id it will be stored under is not known yet); finalizing moves it to
      // invoice_metadata and clears it. customer_id has no foreign key: deleting a customer keeps its
      // invoices (SPEC 4.13).
      `CREATE TABLE issued_invoices (
        ${bytes32('user_op_hash')} PRIMARY KEY,
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        chain_id integer NOT NULL CHECK (chain_id > 0),
        ${address('registry')},
        customer_id uuid,
        invoice_number text NOT NULL CHECK (char_length(invoice_number) BETWEEN 1 AND 64),
        amount numeric(78, 0) NOT NULL CHECK (amount > 0),
        due_at bigint NOT NULL CHECK (due_at >= 0),
        ${bytes32('meta_hash')},
        send_email boolean NOT NULL DEFAULT false,
        pending_metadata bytea,
        pending_metadata_iv bytea,
        invoice_id numeric(78, 0) CHECK (invoice_id >= 0),
        tx_hash text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        issued_at bigint CHECK (issued_at >= 0),
        created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        finalized_at timestamptz,
        CONSTRAINT issued_invoices_sealed_until_final CHECK ((finalized_at IS NULL) = (pending_metadata IS NOT NULL) AND num_nulls(pending_metadata, pending_metadata_iv) IN (0, 2)),
        CONSTRAINT issued_invoices_final_known CHECK (finalized_at IS NULL OR num_nulls(invoice_id, tx_hash, issued_at) = 0)
      )`,
      'CREATE UNIQUE INDEX issued_invoices_invoice ON issued_invoices (chain_id, registry, invoice_id) WHERE invoice_id IS NOT NULL',
      'CREATE INDEX issued_invoices_customer ON issued_invoices (studio_id, customer_id) WHERE customer_id IS NOT NULL',
      // SPEC 2.11: vault operations our paymaster sponsored for a studio, per UTC day; a row is
      // counted up in one statement that refuses past the day's quota.
      `CREATE TABLE merchant_operation_usage (
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        day date NOT NULL,
        used integer NOT NULL CHECK (used >= 0),
        PRIMARY KEY (studio_id, day)
      )`,
    ],
  },
  {
    version: 14,
    name: 'invoice index',
    statements: [
      // The registry's invoices as its events left them (server/merchant/invoices/invoiceIndex.ts),
      // written by the webhooks' registry follower in the transaction that moves its cursor, so the
      // index is exactly as far as the cursor says. Every merchant's invoices: the logs carry what a
      // row needs, their block's time included, so another merchant's costs no chain read. changed_*
      // name the block of the row's last event: after a reorganisation deeper than the confirmations,
      // the rows whose block is gone are read again from the chain.
      `CREATE TABLE invoice_index (
        ${invoiceKey},
        ${address('merchant')},
        invoice_number numeric(20, 0) NOT NULL CHECK (invoice_number >= 0),
        ${address('token')},
        amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
        status text NOT NULL CHECK (status IN ('Issued', 'Paid', 'Canceled')),
        payer text CHECK (payer ~ '^0x[0-9a-f]{40}$'),
        ${bytes32('meta_hash')},
        issued_at bigint NOT NULL CHECK (issued_at >= 0),
        due_at bigint NOT NULL CHECK (due_at >= 0),
        issued_block numeric(78, 0) NOT NULL CHECK (issued_block >= 0),
        ${bytes32('issued_tx')},
        paid_at bigint CHECK (paid_at >= 0),
        paid_tx text CHECK (paid_tx ~ '^0x[0-9a-f]{64}$'),
        settled_fee numeric(78, 0) CHECK (settled_fee >= 0),
        settled_fee_bps integer CHECK (settled_fee_bps >= 0),
        settled_net numeric(78, 0) CHECK (settled_net >= 0),
        canceled_at bigint CHECK (canceled_at >= 0),
        refunded_amount numeric(78, 0) NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0),
        changed_block numeric(78, 0) NOT NULL CHECK (changed_block >= 0),
        ${bytes32('changed_block_hash')},
        PRIMARY KEY (chain_id, registry, invoice_id)
      )`,
      // GET /v1/invoices: one merchant's rows in each order it offers (the id breaks ties), and its filters
      'CREATE INDEX invoice_index_by_block ON invoice_index (chain_id, registry, merchant, issued_block, invoice_id)',
      'CREATE INDEX invoice_index_by_issued_at ON invoice_index (chain_id, registry, merchant, issued_at, invoice_id)',
      'CREATE INDEX invoice_index_by_due_at ON invoice_index (chain_id, registry, merchant, due_at, invoice_id)',
      'CREATE INDEX invoice_index_by_amount ON invoice_index (chain_id, registry, merchant, amount, invoice_id)',
      'CREATE INDEX invoice_index_by_number ON invoice_index (chain_id, registry, merchant, invoice_number, invoice_id)',
      'CREATE INDEX invoice_index_by_status ON invoice_index (chain_id, registry, merchant, status, issued_block, invoice_id)',
      'CREATE INDEX invoice_index_by_payer ON invoice_index (chain_id, registry, merchant, payer) WHERE payer IS NOT NULL',
      // a deep reorganisation's repair walks the latest changes first
      'CREATE INDEX invoice_index_changed ON invoice_index (chain_id, registry, changed_block)',
    ],
  },
  {
    version: 15,
    name: 'email deliveries and cancel attempts',
    statements: [
      // One row per invoice: the mail to its customer (server/merchant/email/). The row made by
      // issuance is never sent again by an issuance retry; an explicit send-email sends again and
      // counts it in attempts. No reference to customers: deleting one keeps what was sent to it.
      `CREATE TABLE email_deliveries (
        studio_id uuid NOT NULL REFERENCES studios (id),
        ${invoiceKey},
        customer_id uuid,
        recipient text NOT NULL CHECK (char_length(recipient) BETWEEN 3 AND 254),
        status text NOT NULL CHECK (status IN ('queued', 'sent', 'failed')),
        message_id text CHECK (char_length(message_id) <= 998),
        error text CHECK (char_length(error) <= 500),
        attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (chain_id, registry, invoice_id)
      )`,
      'CREATE INDEX email_deliveries_studio ON email_deliveries (studio_id)',
      // One server-signed cancel per invoice (server/merchant/cancel/): a repeated cancel/submit finds
      // the operation already sent and polls it instead of sending a second one.
      `CREATE TABLE cancel_attempts (
        studio_id uuid NOT NULL REFERENCES studios (id),
        ${invoiceKey},
        user_op_hash text CHECK (user_op_hash ~ '^0x[0-9a-f]{64}$'),
        state text NOT NULL CHECK (state IN ('submitting', 'submitted', 'confirmed', 'failed')),
        tx_hash text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (chain_id, registry, invoice_id)
      )`,
    ],
  },
  {
    version: 16,
    name: 'withdrawals and refunds',
    statements: [
      // SPEC 2.3: where a studio's withdrawals may go, set by its owner (4.2). One per studio; a
      // studio starts without one, and withdrawals are refused until it is set.
      `CREATE TABLE withdrawal_addresses (
        studio_id uuid PRIMARY KEY REFERENCES studios (id) ON DELETE CASCADE,
        ${address('address')},
        updated_at timestamptz NOT NULL DEFAULT statement_timestamp()
      )`,
      // SPEC 2.15: each owner-signed withdrawal sent (server/merchant/withdrawals/). A row is written
      // before its operation leaves, so a request that times out leaves a pending row the next
      // write reconciles from the chain; one row per operation, so none is sent twice.
      `CREATE TABLE withdrawals (
        id uuid PRIMARY KEY,
        studio_id uuid NOT NULL REFERENCES studios (id),
        chain_id integer NOT NULL CHECK (chain_id > 0),
        ${address('token')},
        amount numeric(78, 0) NOT NULL CHECK (amount > 0),
        ${address('destination')},
        ${bytes32('user_op_hash')} UNIQUE,
        nonce numeric(78, 0) NOT NULL,
        valid_until bigint NOT NULL,
        sent_at_block numeric(78, 0) NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
        tx_hash text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        failure text CHECK (char_length(failure) <= 100),
        created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        confirmed_at timestamptz
      )`,
      'CREATE INDEX withdrawals_studio ON withdrawals (studio_id, created_at DESC, id)',
      // The owner-signed refunds sent (server/merchant/refunds/), as withdrawals above: the chain
      // holds the refunds themselves (InvoiceRefunded, refundedAmount); these rows only follow the
      // operations this server sent.
      `CREATE TABLE refund_submissions (
        id uuid PRIMARY KEY,
        studio_id uuid NOT NULL REFERENCES studios (id),
        ${invoiceKey},
        ${address('payer')},
        amount numeric(78, 0) NOT NULL CHECK (amount > 0),
        ${bytes32('user_op_hash')} UNIQUE,
        nonce numeric(78, 0) NOT NULL,
        valid_until bigint NOT NULL,
        sent_at_block numeric(78, 0) NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
        tx_hash text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        failure text CHECK (char_length(failure) <= 100),
        created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        confirmed_at timestamptz
      )`,
      'CREATE INDEX refund_submissions_studio ON refund_submissions (studio_id, status)',
      // the registry's InvoiceRefunded becomes a webhook too
      'ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check',
      `ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check CHECK (type IN ('invoice.paid', 'invoice.canceled', 'invoice.refunded'))`,
    ],
  },
  {
    version: 17,
    name: 'accounts: users, memberships and the API key audit log',
    statements: [
      // SPEC 4.1: the people who sign in with an identity provider's JWT, known by the provider's
      // issuer and subject (an email can change or be reused; the pair cannot). POST /v1/auth/login
      // creates the row or syncs its email (server/merchant/accounts/).
      `CREATE TABLE users (
        id uuid PRIMARY KEY,
        issuer text NOT NULL CHECK (char_length(issuer) BETWEEN 1 AND 500),
        subject text NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 255),
        email text CHECK (char_length(email) <= 254),
        created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        last_login_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        CONSTRAINT users_identity_unique UNIQUE (issuer, subject)
      )`,
      // Which studio a user owns (SPEC 5.6 "owner checks"). One studio per user for now: a studio is
      // made with its vault (SPEC 4.3), and its owner is the user who provisioned it.
      `CREATE TABLE studio_memberships (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner')),
        created_at timestamptz NOT NULL DEFAULT statement_timestamp()
      )`,
      'CREATE INDEX studio_memberships_studio ON studio_memberships (studio_id)',
      // SPEC 2.8 and 4.4: what happened to a studio's keys. Created, rotated and revoked are always
      // written; uses are sampled (about one request in ten), so this is no ledger of requests.
      `CREATE TABLE api_key_audit_events (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL UNIQUE,
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        key_id text NOT NULL,
        event text NOT NULL CHECK (event IN ('created', 'rotated', 'revoked', 'used')),
        user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        method text CHECK (char_length(method) <= 10),
        path text CHECK (char_length(path) <= 300),
        created_at timestamptz NOT NULL DEFAULT statement_timestamp()
      )`,
      'CREATE INDEX api_key_audit_events_studio ON api_key_audit_events (studio_id, seq DESC)',
    ],
  },
  {
    version: 18,
    name: 'received payments in payment order',
    statements: [
      // GET /v1/payments (latest first) and its export (a range, oldest first) read one merchant's
      // Paid rows by payment time: only those rows, in that order, without sorting the merchant's history
      `CREATE INDEX invoice_index_paid ON invoice_index (chain_id, registry, merchant, paid_at, invoice_id) WHERE status = 'Paid'`,
    ],
  },
  {
    version: 19,
    name: 'oauth authorization server storage',
    statements: [
      // the CLI's and MCP's authorization server (oidc-provider): clients, grants, sessions, codes and
      // tokens by model; ids are SHA-256 hashes, since an opaque token's id is the token itself
      `CREATE TABLE oauth_payloads (
        model text NOT NULL,
        id_hash text NOT NULL CHECK (id_hash ~ '^[0-9a-f]{64}$'),
        payload jsonb NOT NULL,
        grant_id text,
        uid text,
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (model, id_hash)
      )`,
      'CREATE INDEX oauth_payloads_grant ON oauth_payloads (grant_id) WHERE grant_id IS NOT NULL',
      'CREATE INDEX oauth_payloads_uid ON oauth_payloads (uid) WHERE uid IS NOT NULL',
    ],
  },
  {
    version: 20,
    name: 'customer creation order',
    statements: [
      // the customer list pages oldest first: two customers made in one tick of the clock were listed
      // in either order by their random ids (seen on a loaded machine), so a page could repeat one
      'ALTER TABLE customers ADD COLUMN created_order bigint GENERATED ALWAYS AS IDENTITY',
    ],
  },
  {
    version: 21,
    name: 'invoice mail requests per day',
    statements: [
      // send-email sends again each time a merchant asks: counted per invoice and UTC day, so a key
      // cannot turn the service's mail into a stream at one customer (server/merchant/email)
      'ALTER TABLE email_deliveries ADD COLUMN requests_day date',
      'ALTER TABLE email_deliveries ADD COLUMN requests_on_day integer NOT NULL DEFAULT 0 CHECK (requests_on_day >= 0)',
    ],
  },
  {
    version: 22,
    name: 'studio provisioning: vault deployments',
    statements: [
      // a user's vault deployment (SPEC 4.3), from its prepare to its receipt. The studio is made only
      // at submit, once the owner's signature is checked: a prepare proves nothing of the owner, and a
      // studio made then could hold another wallet's vault address. Prepares count per user and UTC day,
      // as our paymaster signs each one before there is a studio to count them against.
      `CREATE TABLE vault_deployments (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        studio_id uuid UNIQUE REFERENCES studios (id) ON DELETE CASCADE,
        chain_id integer NOT NULL CHECK (chain_id > 0),
        ${address('vault_address')},
        ${address('owner_address')},
        salt numeric(78, 0) NOT NULL CHECK (salt >= 0),
        -- the name the studio is to have, as prepare was given it: submit may leave it out
        studio_name text CHECK (char_length(studio_name) <= 100),
        status text NOT NULL CHECK (status IN ('prepared', 'pending', 'deployed', 'failed')),
        user_op_hash text CHECK (user_op_hash ~ '^0x[0-9a-f]{64}$'),
        tx_hash text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        valid_until bigint,
        sent_at_block numeric(78, 0),
        failure text,
        prepared_day date NOT NULL,
        prepares_on_day integer NOT NULL CHECK (prepares_on_day >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 23,
    name: 'server signer lifecycle',
    statements: [
      // SPEC 2.9 and 4.5: the studio's server signer as this server knows it (server/merchant/signer/).
      // The chain's session module says whether the session is live; this row keeps what the chain
      // cannot: the signer's stable id, a revocation the owner asked for, and a database-only
      // (forced) revocation, which refuses writes while the on-chain session stays installed.
      `CREATE TABLE server_signers (
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        chain_id integer NOT NULL CHECK (chain_id > 0),
        signer_id uuid NOT NULL UNIQUE,
        ${address('signer_address')},
        revocation_requested_at timestamptz,
        revoked_at timestamptz,
        revocation text CHECK (revocation IN ('on_chain', 'database_only')),
        CHECK ((revoked_at IS NULL) = (revocation IS NULL)),
        updated_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        PRIMARY KEY (studio_id, chain_id)
      )`,
      // The owner-signed StartSession and EndSession operations this server sent, as withdrawals:
      // written before the operation leaves, so a submission that timed out is reconciled from the
      // chain by its receipt or the vault's nonce (signer/reconcilePendingOwnerOperations.ts).
      `CREATE TABLE signer_operations (
        id uuid PRIMARY KEY,
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        chain_id integer NOT NULL CHECK (chain_id > 0),
        kind text NOT NULL CHECK (kind IN ('StartSession', 'EndSession')),
        ${bytes32('user_op_hash')} UNIQUE,
        nonce numeric(78, 0) NOT NULL,
        valid_until bigint NOT NULL,
        sent_at_block numeric(78, 0) NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
        tx_hash text CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        failure text CHECK (char_length(failure) <= 100),
        created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
        confirmed_at timestamptz
      )`,
      'CREATE INDEX signer_operations_studio ON signer_operations (studio_id, status)',
    ],
  },
  {
    version: 24,
    name: 'agents',
    statements: [
      // SPEC 2.10 and 4.6: a studio's agents, records that name an integration and hold its keys (server/merchant/agents)
      `CREATE TABLE agents (
        id uuid PRIMARY KEY,
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
        description text CHECK (char_length(description) <= 256),
        icon text NOT NULL CHECK (icon IN ('bot', 'code', 'server', 'database', 'cloud', 'terminal', 'webhook', 'plug', 'cpu', 'globe')),
        scopes text[] NOT NULL CHECK (cardinality(scopes) > 0),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        created_order bigint GENERATED ALWAYS AS IDENTITY
      )`,
      'CREATE INDEX agents_studio ON agents (studio_id, created_order)',
      // a key belongs to one agent at most; HMAC verification reads the agent's status with the key,
      // so a disabled agent's keys are refused from the next request on every instance
      'ALTER TABLE api_keys ADD COLUMN agent_id uuid REFERENCES agents (id) ON DELETE SET NULL',
      'CREATE INDEX api_keys_agent ON api_keys (agent_id) WHERE agent_id IS NOT NULL',
    ],
  },
  {
    version: 25,
    name: 'leads',
    statements: [
      // SPEC 4.7: enquiries from the public form, kept before any mail is tried; each mail's success
      // beside it, so a mail that failed is seen and nothing is lost (server/merchant/leads)
      `CREATE TABLE leads (
        id uuid PRIMARY KEY,
        first_name text NOT NULL CHECK (char_length(first_name) BETWEEN 1 AND 100),
        last_name text NOT NULL CHECK (char_length(last_name) BETWEEN 1 AND 100),
        email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
        company text NOT NULL CHECK (char_length(company) BETWEEN 1 AND 200),
        role text NOT NULL CHECK (char_length(role) BETWEEN 1 AND 100),
        use_case_description text NOT NULL CHECK (char_length(use_case_description) BETWEEN 10 AND 2000),
        platform_type text NOT NULL CHECK (platform_type IN ('dsp', 'igaming', 'gaming', 'financial', 'other')),
        monthly_volume text NOT NULL CHECK (monthly_volume IN ('under_100k', '100k_500k', '500k_2m', '2m_10m', '10m_plus')),
        timeline text NOT NULL CHECK (timeline IN ('exploring', '1_3_months', 'asap')),
        referral_source text CHECK (char_length(referral_source) <= 200),
        source_page text CHECK (char_length(source_page) <= 200),
        additional_notes text CHECK (char_length(additional_notes) <= 2000),
        source_plan text CHECK (char_length(source_plan) <= 100),
        created_at timestamptz NOT NULL DEFAULT now(),
        operator_notified_at timestamptz,
        confirmation_sent_at timestamptz
      )`,
      'CREATE INDEX leads_created ON leads (created_at)',
    ],
  },
  {
    version: 26,
    name: 'MCP and CLI writes in the audit log',
    statements: [
      // every write an agent (MCP) or a CLI sign-in makes is written, never sampled: the owner reads
      // which client did what beside their keys' events, in one log (server/merchant/oauth/agentWriteAudit.ts).
      // key_id holds the OAuth client's id; client_name is its registered name as it was then
      'ALTER TABLE api_key_audit_events DROP CONSTRAINT api_key_audit_events_event_check',
      `ALTER TABLE api_key_audit_events ADD CONSTRAINT api_key_audit_events_event_check CHECK (event IN ('created', 'rotated', 'revoked', 'used', 'agent_write'))`,
      'ALTER TABLE api_key_audit_events ADD COLUMN client_name text CHECK (char_length(client_name) <= 200)',
      'ALTER TABLE api_key_audit_events ADD COLUMN summary text CHECK (char_length(summary) <= 500)',
    ],
  },
  {
    version: 28,
    name: 'sponsorships bound to who asked for them',
    statements: [
      // each vault deployment our paymaster sponsored, under the user who asked: submit takes only an
      // operation this very user prepared, so a signed deployment seen by a watcher (a mempool, the
      // chain) cannot be submitted under their sign-in and recorded as their studio (server/merchant/vaults)
      `CREATE TABLE vault_deployment_prepares (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        ${bytes32('user_op_hash')},
        valid_until bigint NOT NULL,
        PRIMARY KEY (user_id, user_op_hash)
      )`,
      // the server signer's StartSession prepares our paymaster sponsored a studio in a UTC day, counted
      // once per vault nonce: only one operation at a nonce can ever be included, so a status read again
      // costs nothing, while starting and ending sessions in turn does (server/merchant/signer)
      `CREATE TABLE signer_session_sponsorships (
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        day date NOT NULL,
        starts integer NOT NULL CHECK (starts >= 0),
        last_nonce numeric(78, 0) NOT NULL,
        PRIMARY KEY (studio_id, day)
      )`,
    ],
  },
  {
    version: 29,
    name: 'one lead confirmation per address a day',
    statements: [
      // the form is open to anyone, and many clients together could have us mail one stranger again and
      // again: a confirmation goes to an address at most once in 24 hours. The address is kept as a
      // hash of its normalised form only, the enquiry already holding it (server/merchant/leads)
      `CREATE TABLE lead_confirmations (
        recipient_hash text PRIMARY KEY CHECK (recipient_hash ~ '^[0-9a-f]{64}$'),
        sent_at timestamptz NOT NULL
      )`,
      // an enquiry whose confirmation was not sent because its address had one within the 24 hours
      'ALTER TABLE leads ADD COLUMN confirmation_withheld_at timestamptz',
    ],
  },
  {
    version: 30,
    name: 'reserved sponsored operations',
    statements: [
      // SPEC 2.11's reserved operations: a sponsored vault operation prepared for the owner's wallet is
      // counted in merchant_operation_usage from its prepare, and is reserved until it is sent through
      // us or its sponsorship ends (one sent straight to a bundler stays reserved until then). day is
      // the one it was counted in (server/merchant/signer/operationQuota.ts)
      `CREATE TABLE merchant_operation_reservations (
        ${bytes32('user_op_hash')} PRIMARY KEY,
        studio_id uuid NOT NULL REFERENCES studios (id) ON DELETE CASCADE,
        day date NOT NULL,
        valid_until timestamptz NOT NULL,
        sent_at timestamptz
      )`,
      'CREATE INDEX merchant_operation_reservations_studio ON merchant_operation_reservations (studio_id, day)',
    ],
  },
]

/** Brings the schema up to date and returns the versions it applied. Everything happens in one
 * transaction under one lock, so instances starting together apply each step exactly once, and a
 * failing step leaves the schema as it was. Versions this code does not know (a newer release
 * already ran) are left alone. */
export async function migrate(db: Database, steps: readonly Migration[] = migrations): Promise<number[]> {
  steps.forEach((step, i) => {
    const previous = steps[i - 1]
    if (previous && step.version <= previous.version) {
      throw new MigrationOrderError(`migration ${step.version} follows ${previous.version}: versions must increase`)
    }
  })
  return db.transaction(async (tx) => {
    // Taken before the CREATE TABLE: concurrent CREATE TABLE IF NOT EXISTS can still collide.
    await lockForTransaction(tx, 'migrations', 'schema_migrations')
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const done = await appliedVersions(tx)
    const applied: number[] = []
    for (const step of steps) {
      if (done.has(step.version)) continue
      for (const statement of step.statements) await tx.query(statement)
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [step.version, step.name])
      applied.push(step.version)
    }
    return applied
  })
}

async function appliedVersions(db: Queryable): Promise<Set<number>> {
  try {
    return new Set((await db.query<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version))
  } catch (error) {
    // undefined_table: no migration has ever run here
    if (error instanceof QueryError && error.sqlState === '42P01') return new Set()
    throw error
  }
}

/** The versions this code needs that the database lacks: it cannot serve on that schema (GET /readyz). */
export async function pendingMigrations(db: Queryable, steps: readonly Migration[] = migrations): Promise<number[]> {
  const done = await appliedVersions(db)
  return steps.map((step) => step.version).filter((version) => !done.has(version))
}
