// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {SimpleAccount} from "@account-abstraction/contracts/samples/SimpleAccount.sol";
import {PayerVault} from "./PayerVault.sol";

/// Deterministic vault addresses: a payer can be shown and funded at its vault before the vault
/// exists; the first UserOperation deploys it through the EntryPoint's SenderCreator.
contract PayerVaultFactory {
    PayerVault public immutable vaultImplementation;

    constructor(IEntryPoint entryPoint_) {
        vaultImplementation = new PayerVault(entryPoint_);
    }

    /// Returns the existing vault rather than reverting, so a UserOperation that raced another
    /// deployment still validates.
    function createAccount(address owner, uint256 salt) external returns (PayerVault vault) {
        address predicted = getAddress(owner, salt);
        if (predicted.code.length > 0) return PayerVault(payable(predicted));
        vault = PayerVault(payable(new ERC1967Proxy{salt: bytes32(salt)}(address(vaultImplementation), _initCall(owner))));
    }

    function getAddress(address owner, uint256 salt) public view returns (address) {
        bytes memory creationCode =
            abi.encodePacked(type(ERC1967Proxy).creationCode, abi.encode(address(vaultImplementation), _initCall(owner)));
        return Create2.computeAddress(bytes32(salt), keccak256(creationCode));
    }

    function _initCall(address owner) private pure returns (bytes memory) {
        return abi.encodeCall(SimpleAccount.initialize, (owner));
    }
}
