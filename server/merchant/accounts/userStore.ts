import { randomUUID } from 'node:crypto'
import type { Database } from '../../store/database'

/** SPEC 4.1's user: a person an identity provider vouches for, known here by (issuer, subject). */
export type User = { id: string; issuer: string; subject: string; email: string | null; studioId: string | null; createdAt: Date; lastLoginAt: Date }

type UserRow = { id: string; issuer: string; subject: string; email: string | null; studio_id: string | null; created_at: Date; last_login_at: Date }

const toUser = (row: UserRow): User => ({
  id: row.id,
  issuer: row.issuer,
  subject: row.subject,
  email: row.email,
  studioId: row.studio_id,
  createdAt: row.created_at,
  lastLoginAt: row.last_login_at,
})

const selectUser = `SELECT u.id, u.issuer, u.subject, u.email, u.created_at, u.last_login_at, m.studio_id
  FROM users u LEFT JOIN studio_memberships m ON m.user_id = u.id`

/** Users and the studio each owns (migration 17). */
export function createUserStore(db: Database) {
  async function findUser(issuer: string, subject: string): Promise<User | null> {
    const [row] = await db.query<UserRow>(`${selectUser} WHERE u.issuer = $1 AND u.subject = $2`, [issuer, subject])
    return row ? toUser(row) : null
  }
  return {
    findUser,

    /** Creates the user or syncs its email and last sign-in; `created` says which, in one statement,
     * so two first sign-ins at once make one user. */
    async signIn({ issuer, subject, email }: { issuer: string; subject: string; email: string | null }): Promise<{ user: User; created: boolean }> {
      const [row] = await db.query<{ id: string; created: boolean }>(
        `INSERT INTO users (id, issuer, subject, email) VALUES ($1, $2, $3, $4)
         ON CONFLICT (issuer, subject) DO UPDATE SET email = COALESCE(EXCLUDED.email, users.email), last_login_at = statement_timestamp()
         RETURNING id, (xmax = 0) AS created`,
        [randomUUID(), issuer, subject, email],
      )
      const user = await findUser(issuer, subject)
      return { user: user!, created: row!.created }
    },

    /** Makes the user its studio's owner (the devnet's demo merchant, a studio provisioned by its user). */
    async makeOwner(userId: string, studioId: string): Promise<void> {
      await db.query(
        `INSERT INTO studio_memberships (user_id, studio_id, role) VALUES ($1, $2, 'owner')
         ON CONFLICT (user_id) DO UPDATE SET studio_id = EXCLUDED.studio_id`,
        [userId, studioId],
      )
    },
  }
}

export type UserStore = ReturnType<typeof createUserStore>
