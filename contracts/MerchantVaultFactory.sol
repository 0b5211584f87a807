// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {MerchantVault} from "./MerchantVault.sol";
import {SessionSignerValidator} from "./SessionSignerValidator.sol";

/// Deterministic merchant vault addresses (ERC-1167 clones of one implementation): a studio's vault
/// is known, shown and paid to before it exists; its first operation deploys it through the
/// EntryPoint's SenderCreator, with the same createAccount/getAddress as the payer's vault factory.
contract MerchantVaultFactory {
    MerchantVault public immutable vaultImplementation;

    constructor(SessionSignerValidator sessionValidator) {
        vaultImplementation = new MerchantVault(sessionValidator);
    }

    /// Returns the existing vault rather than reverting, so an operation that raced another
    /// deployment still validates.
    function createAccount(address owner, uint256 salt) external returns (MerchantVault vault) {
        address predicted = getAddress(owner, salt);
        if (predicted.code.length > 0) return MerchantVault(payable(predicted));
        vault = MerchantVault(payable(Clones.cloneDeterministic(address(vaultImplementation), _salt(owner, salt))));
        vault.initialize(owner);
    }

    function getAddress(address owner, uint256 salt) public view returns (address) {
        return Clones.predictDeterministicAddress(address(vaultImplementation), _salt(owner, salt));
    }

    /// The owner is part of the salt: nobody can take another owner's address by racing its creation.
    function _salt(address owner, uint256 salt) private pure returns (bytes32) {
        return keccak256(abi.encode(owner, salt));
    }
}
