import { expect, test } from 'vitest'
import { listenOn } from '../../server/http/listenOn'

test('behavior: an address that is not this machine\'s is refused naming the address setting, not the port', async () => {
  // 192.0.2.1 is TEST-NET-1, reserved for documentation: no machine has it
  await expect(listenOn({ fetch: () => new Response(''), hostname: '192.0.2.1', port: 0, variable: 'OPS_PORT', hostVariable: 'OPS_HOST' })).rejects.toMatchObject({
    code: 'CONFIG_INVALID',
    message: 'OPS_PORT 0 on 192.0.2.1 cannot be listened on (EADDRNOTAVAIL): 192.0.2.1 is not an address of this machine: choose one that is with OPS_HOST',
  })
})
