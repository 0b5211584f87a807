import { randomBytes } from 'node:crypto'
import { bytesToHex, getAddress } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { agentsPerStudio, createAgentStore, type AgentStore } from '../../server/merchant/agents/agentStore'
import { createApiKeyStore, type ApiKeyStore } from '../../server/store/apiKeyStore'
import type { Database } from '../../server/store/database'
import { createMetadataCipher } from '../../server/store/metadataCipher'
import { createStudioStore } from '../../server/store/studioStore'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
const cipher = createMetadataCipher(randomBytes(32).toString('base64'))
const agent = (name: string) => ({ name, description: null, icon: 'bot' as const, scopes: ['read'] })

describe.each(backends)('agent store on %s', (backend) => {
  let db: Database
  let second: Database
  let agents: AgentStore
  let keys: ApiKeyStore
  const newStudio = async () => (await createStudioStore(db).createStudio({ name: 'Agents', vaultAddress: getAddress(bytesToHex(randomBytes(20))), chainId: 31337 })).id
  const newKey = async (studioId: string) => (await keys.createApiKey({ studioId, name: 'agent key', scopes: ['read'] })).keyId
  beforeAll(async () => {
    ;[db, second] = await databases.openTwo(backend)
    agents = createAgentStore(db)
    keys = createApiKeyStore(db, cipher)
  })

  test('behavior: two instances creating the fiftieth agent at once make one; the other is told the studio is full', async () => {
    const studioId = await newStudio()
    for (let i = 0; i < agentsPerStudio - 1; i++) expect(await agents.createAgent(studioId, agent(`agent ${i}`), await newKey(studioId))).not.toBeNull()
    const racers = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? agents : createAgentStore(second)))
    const racerKeys = await Promise.all(racers.map(() => newKey(studioId)))
    const made = await Promise.all(racers.map((store, i) => store.createAgent(studioId, agent(`racer ${i}`), racerKeys[i]!)))
    expect(made.filter((outcome) => outcome !== null)).toHaveLength(1)
    expect(await agents.countAgents(studioId)).toBe(agentsPerStudio)
  })

  test("behavior: the key's verification reads its agent's status; deleting the agent revokes its keys and no other", async () => {
    const studioId = await newStudio()
    const [first, second, standalone] = [await newKey(studioId), await newKey(studioId), await newKey(studioId)]
    const made = (await agents.createAgent(studioId, agent('Reconciler'), first))!
    expect(await agents.linkKey(studioId, made.id, second)).toBe('linked')
    expect(await keys.getApiKeyForVerification(first)).toMatchObject({ status: 'active', agentStatus: 'active' })
    expect(await keys.getApiKeyForVerification(standalone)).toMatchObject({ status: 'active', agentStatus: null })
    await agents.updateAgent(studioId, made.id, { status: 'disabled' })
    expect(await keys.getApiKeyForVerification(second)).toMatchObject({ status: 'active', agentStatus: 'disabled' })
    expect(await agents.deleteAgent(studioId, made.id)).toEqual({ keysRevoked: expect.arrayContaining([first, second]) })
    for (const keyId of [first, second]) expect(await keys.getApiKeyForVerification(keyId)).toMatchObject({ status: 'revoked', agentStatus: null })
    expect(await keys.getApiKeyForVerification(standalone)).toMatchObject({ status: 'active' })
  })

  test("behavior: another studio's agent is not found, changed, deleted or linked to", async () => {
    const [own, other] = [await newStudio(), await newStudio()]
    const made = (await agents.createAgent(own, agent('Mine'), await newKey(own)))!
    expect(await agents.getAgent(other, made.id)).toBeNull()
    expect(await agents.updateAgent(other, made.id, { status: 'disabled' })).toBeNull()
    expect(await agents.deleteAgent(other, made.id)).toBeNull()
    expect(await agents.linkKey(other, made.id, await newKey(other))).toBe('no_agent')
    expect(await agents.linkKey(own, made.id, await newKey(other))).toBe('no_key')
    expect((await agents.getAgent(own, made.id))?.status).toBe('active')
  })
})
