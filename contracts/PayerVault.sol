// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

import {SimpleAccount} from "@account-abstraction/contracts/samples/SimpleAccount.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// SimpleAccount v0.7 that can also own a permit: the token asks the vault (ERC-1271) and the vault
/// accepts what its owner signed. The hash is the token's own EIP-712 digest, which already names
/// this vault as the permit owner, so a signature cannot be replayed for another vault.
contract PayerVault is SimpleAccount, IERC1271 {
    constructor(IEntryPoint entryPoint_) SimpleAccount(entryPoint_) {}

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        if (err == ECDSA.RecoverError.NoError && signer == owner) return IERC1271.isValidSignature.selector;
        return 0xffffffff;
    }
}
