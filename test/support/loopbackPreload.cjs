'use strict'
// Loaded with `node --require` into the services test/support/loopbackChild.ts starts (the alto
// bundler, pimlico's mock paymaster). alto listens on 0.0.0.0 whatever its flags and tests may only
// use loopback, so every listen is pinned to 127.0.0.1; with port 0 the port the OS chose is reported
// over the IPC channel; and the child exits when that channel closes, so a test process that dies
// cannot leave a service behind.
const net = require('node:net')

const loopback = '127.0.0.1'
const listen = net.Server.prototype.listen

net.Server.prototype.listen = function (...args) {
  const [first, second] = args
  if (first !== null && typeof first === 'object' && ('port' in first || 'host' in first)) {
    args[0] = { ...first, host: loopback }
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof second === 'string') args[1] = loopback
    else args.splice(1, 0, loopback)
  }
  this.once('listening', () => {
    const address = this.address()
    if (address !== null && typeof address === 'object' && process.send) process.send({ listening: address })
  })
  return listen.apply(this, args)
}

if (process.send) process.once('disconnect', () => process.exit(0))
