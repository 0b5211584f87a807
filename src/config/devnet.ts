/** The only chain on which the page offers its built-in devnet wallet (anvil's default chain id). */
export const devnetChainId = 31337
