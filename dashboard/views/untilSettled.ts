/**
 * A signed operation answered "not yet on-chain" (202) is sent again, as SPEC 4.3 and 4.10 ask,
 * every two seconds for about a minute; the last answer is returned, so after that minute the
 * merchant is told it is on its way.
 */
export async function untilSettled<T extends { status: string }>(send: () => Promise<T>, waiting: (answer: T) => boolean = (answer) => answer.status === 'pending'): Promise<T> {
  let answer = await send()
  for (let tries = 0; waiting(answer) && tries < 30; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    answer = await send()
  }
  return answer
}
