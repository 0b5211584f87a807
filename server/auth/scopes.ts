/** SPEC 5.5's scope strings. */
export const scopes = ['invoice:read', 'invoice:write', 'customer:read', 'customer:write', 'dashboard:read', 'read', 'write', 'sponsor'] as const

export type Scope = (typeof scopes)[number]

/** Which granted scopes satisfy a needed one besides itself (SPEC 5.5 relations). */
const satisfiedAlsoBy: Record<Scope, readonly Scope[]> = {
  'invoice:read': ['invoice:write', 'read', 'write'],
  'invoice:write': ['write'],
  'customer:read': ['customer:write', 'read', 'write'],
  'customer:write': ['write'],
  'dashboard:read': ['read', 'write'],
  read: [],
  write: [],
  sponsor: [],
}

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value)
}

export function grantsScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(needed) || satisfiedAlsoBy[needed].some((scope) => granted.includes(scope))
}
