import { startAnvil } from '../../devnet/anvil'

// a devnet start that fails after its chain is up (test/devnet/anvil.test.ts): the pid, then an uncaught error
const anvil = await startAnvil()
console.log(anvil.pid)
throw new Error('failed after the chain started')
