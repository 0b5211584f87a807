// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

interface IOwnable {
    function transferOwnership(address newOwner) external;
}

/// Creates a contract that makes its creator its owner (OpenZeppelin 4's Ownable, as eth-infinitism's
/// VerifyingPaymaster 0.6.0 does) and hands it to `owner` in the same transaction. Deployed itself
/// through the deterministic-deployment proxy, the contract lands at an address that follows from its
/// init code and `owner` alone (this contract's CREATE2 address, nonce 1), and its owner is never the
/// proxy, which can call nothing: a deposit and stake held by it could never be withdrawn. This
/// contract keeps no code of its own.
contract OwnedDeployment {
    error CreateFailed();

    constructor(bytes memory initCode, address owner) {
        address created;
        assembly {
            created := create(0, add(initCode, 0x20), mload(initCode))
        }
        if (created == address(0)) revert CreateFailed();
        IOwnable(created).transferOwnership(owner);
    }
}
