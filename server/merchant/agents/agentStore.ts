import { randomUUID } from 'node:crypto'
import { isUuid, type Database, type Queryable } from '../../store/database'

/** SPEC 2.10's icons: what the dashboard draws beside an agent's name. */
export const agentIcons = ['bot', 'code', 'server', 'database', 'cloud', 'terminal', 'webhook', 'plug', 'cpu', 'globe'] as const
export type AgentIcon = (typeof agentIcons)[number]
export const agentStatuses = ['active', 'disabled'] as const
export type AgentStatus = (typeof agentStatuses)[number]

/** SPEC 8: agents per studio. */
export const agentsPerStudio = 50

/** SPEC 2.10, as kept (migration 24). `scopes` are those its first key was made with: a record of
 * what the owner meant it for; each key keeps its own. */
export type Agent = {
  id: string
  studioId: string
  name: string
  description: string | null
  icon: AgentIcon
  scopes: string[]
  status: AgentStatus
  linkedKeys: number
  createdAt: Date
  updatedAt: Date
}

export type NewAgent = { name: string; description: string | null; icon: AgentIcon; scopes: string[] }
export type AgentChanges = { name?: string | undefined; description?: string | null | undefined; icon?: AgentIcon | undefined; status?: AgentStatus | undefined }

/** What linking a key came to: done (or it was linked already), or why not. */
export type LinkOutcome = 'linked' | 'no_agent' | 'no_key' | 'linked_elsewhere'

type AgentRow = {
  id: string
  studio_id: string
  name: string
  description: string | null
  icon: AgentIcon
  scopes: string[]
  status: AgentStatus
  linked_keys: string | number
  created_at: Date
  updated_at: Date
}

// the count of keys linked now, revoked ones included: the dashboard shows what the agent holds
const columns = `a.id, a.studio_id, a.name, a.description, a.icon, a.scopes, a.status, a.created_at, a.updated_at,
  (SELECT count(*) FROM api_keys k WHERE k.agent_id = a.id) AS linked_keys`

function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    studioId: row.studio_id,
    name: row.name,
    description: row.description,
    icon: row.icon,
    scopes: row.scopes,
    status: row.status,
    linkedKeys: Number(row.linked_keys),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

async function readAgent(db: Queryable, studioId: string, agentId: string): Promise<Agent | null> {
  const [row] = await db.query<AgentRow>(`SELECT ${columns} FROM agents a WHERE a.id = $1 AND a.studio_id = $2`, [agentId, studioId])
  return row ? toAgent(row) : null
}

/**
 * A studio's agents (SPEC 4.6): records that name an integration and hold its keys. A key belongs to
 * at most one agent (api_keys.agent_id); the agent's status is read with the key at each HMAC
 * verification, so disabling one refuses its keys on every instance from the next request.
 */
export function createAgentStore(db: Database) {
  return {
    async countAgents(studioId: string): Promise<number> {
      if (!isUuid(studioId)) return 0
      const [row] = await db.query<{ count: string | number }>('SELECT count(*) FROM agents WHERE studio_id = $1', [studioId])
      return Number(row?.count ?? 0)
    },

    /**
     * The agent, holding `keyId` (a key of the studio, made for it): null when the studio already has
     * its 50. Counted under a lock on the studio's row, so two instances creating at once cannot
     * both take the fiftieth place.
     */
    async createAgent(studioId: string, agent: NewAgent, keyId: string): Promise<Agent | null> {
      return db.transaction(async (tx) => {
        await tx.query('SELECT id FROM studios WHERE id = $1 FOR UPDATE', [studioId])
        const [counted] = await tx.query<{ count: string | number }>('SELECT count(*) FROM agents WHERE studio_id = $1', [studioId])
        if (Number(counted?.count ?? 0) >= agentsPerStudio) return null
        const id = randomUUID()
        await tx.query('INSERT INTO agents (id, studio_id, name, description, icon, scopes) VALUES ($1, $2, $3, $4, $5, $6)', [
          id,
          studioId,
          agent.name,
          agent.description,
          agent.icon,
          agent.scopes,
        ])
        await tx.query('UPDATE api_keys SET agent_id = $1 WHERE key_id = $2 AND studio_id = $3', [id, keyId, studioId])
        return readAgent(tx, studioId, id)
      })
    },

    /** Oldest first. */
    async listAgents(studioId: string): Promise<Agent[]> {
      if (!isUuid(studioId)) return []
      const rows = await db.query<AgentRow>(`SELECT ${columns} FROM agents a WHERE a.studio_id = $1 ORDER BY a.created_order`, [studioId])
      return rows.map(toAgent)
    },

    /** Null for another studio's agent, as for one that does not exist. */
    async getAgent(studioId: string, agentId: string): Promise<Agent | null> {
      if (!isUuid(studioId) || !isUuid(agentId)) return null
      return readAgent(db, studioId, agentId)
    },

    /** Only what is given changes; a description given null is removed. */
    async updateAgent(studioId: string, agentId: string, changes: AgentChanges): Promise<Agent | null> {
      if (!isUuid(studioId) || !isUuid(agentId)) return null
      const [row] = await db.query<{ id: string }>(
        `UPDATE agents SET
           name = COALESCE($3, name),
           description = CASE WHEN $4::boolean THEN $5 ELSE description END,
           icon = COALESCE($6, icon),
           status = COALESCE($7, status),
           updated_at = now()
         WHERE id = $1 AND studio_id = $2 RETURNING id`,
        [agentId, studioId, changes.name ?? null, changes.description !== undefined, changes.description ?? null, changes.icon ?? null, changes.status ?? null],
      )
      return row ? readAgent(db, studioId, agentId) : null
    },

    /** Deletes the agent and revokes every key it holds, in one transaction: the keys stop
     * authenticating with it. Null when there is no such agent; else how many keys were revoked now. */
    async deleteAgent(studioId: string, agentId: string): Promise<{ keysRevoked: string[] } | null> {
      if (!isUuid(studioId) || !isUuid(agentId)) return null
      return db.transaction(async (tx) => {
        const [agent] = await tx.query<{ id: string }>('SELECT id FROM agents WHERE id = $1 AND studio_id = $2 FOR UPDATE', [agentId, studioId])
        if (!agent) return null
        const revoked = await tx.query<{ key_id: string }>(
          'UPDATE api_keys SET revoked_at = now() WHERE agent_id = $1 AND studio_id = $2 AND revoked_at IS NULL RETURNING key_id',
          [agentId, studioId],
        )
        await tx.query('DELETE FROM agents WHERE id = $1', [agentId])
        return { keysRevoked: revoked.map((row) => row.key_id) }
      })
    },

    /** The ids of the keys the agent holds, oldest first; null when there is no such agent. */
    async agentKeyIds(studioId: string, agentId: string): Promise<string[] | null> {
      if (!isUuid(studioId) || !isUuid(agentId)) return null
      if (!(await readAgent(db, studioId, agentId))) return null
      const rows = await db.query<{ key_id: string }>('SELECT key_id FROM api_keys WHERE agent_id = $1 ORDER BY created_at, created_order', [agentId])
      return rows.map((row) => row.key_id)
    },

    /** Links an existing, unrevoked key of the studio. A key another agent holds is not taken from it:
     * the owner unlinks it there first. */
    async linkKey(studioId: string, agentId: string, keyId: string): Promise<LinkOutcome> {
      if (!isUuid(studioId) || !isUuid(agentId)) return 'no_agent'
      return db.transaction(async (tx) => {
        const [agent] = await tx.query<{ id: string }>('SELECT id FROM agents WHERE id = $1 AND studio_id = $2 FOR UPDATE', [agentId, studioId])
        if (!agent) return 'no_agent'
        const [key] = await tx.query<{ agent_id: string | null }>('SELECT agent_id FROM api_keys WHERE key_id = $1 AND studio_id = $2 AND revoked_at IS NULL FOR UPDATE', [keyId, studioId])
        if (!key) return 'no_key'
        if (key.agent_id !== null && key.agent_id !== agentId) return 'linked_elsewhere'
        await tx.query('UPDATE api_keys SET agent_id = $1 WHERE key_id = $2', [agentId, keyId])
        return 'linked'
      })
    },

    /** Unlinks only: the key keeps working on its own (SPEC 3.2). False when the agent does not hold it. */
    async unlinkKey(studioId: string, agentId: string, keyId: string): Promise<boolean> {
      if (!isUuid(studioId) || !isUuid(agentId)) return false
      const rows = await db.query('UPDATE api_keys SET agent_id = NULL WHERE key_id = $1 AND agent_id = $2 AND studio_id = $3 RETURNING key_id', [keyId, agentId, studioId])
      return rows.length > 0
    },
  }
}

export type AgentStore = ReturnType<typeof createAgentStore>
