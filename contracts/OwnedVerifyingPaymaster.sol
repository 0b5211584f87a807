// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {VerifyingPaymaster} from "@account-abstraction/contracts/samples/VerifyingPaymaster.sol";

/// eth-infinitism's VerifyingPaymaster with its owner named at construction. BasePaymaster makes
/// msg.sender the owner; deployed through the deterministic-deployment proxy, msg.sender is the proxy,
/// which can call nothing, so the stake and deposit could never be withdrawn or the stake unlocked.
contract OwnedVerifyingPaymaster is VerifyingPaymaster {
    constructor(IEntryPoint entryPoint_, address verifyingSigner_, address owner_)
        VerifyingPaymaster(entryPoint_, verifyingSigner_)
    {
        _transferOwnership(owner_);
    }
}
