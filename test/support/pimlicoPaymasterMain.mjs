// pimlico's mock paymaster service (@pimlico/mock-paymaster) as its own process, started by
// test/support/pimlicoPaymaster.ts: `node --require loopbackPreload.cjs pimlicoPaymasterMain.mjs <anvil RPC> <alto RPC>`.
// It deploys and funds pimlico's singleton paymasters on the chain before it listens.

// prool, which wraps the service, wants Node 22 for this one ES2024 built-in (`Promise.withResolvers
// is not a function` on Node 20); the service itself runs unchanged
Promise.withResolvers ??= function withResolvers() {
  let resolve
  let reject
  const promise = new this((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const [anvilRpc, altoRpc] = process.argv.slice(2)
const { paymaster } = await import('@pimlico/mock-paymaster')
await paymaster({ anvilRpc, altoRpc, port: 0, host: '127.0.0.1' }).start()
