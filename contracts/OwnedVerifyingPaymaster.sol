// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {VerifyingPaymaster} from "@account-abstraction/contracts/samples/VerifyingPaymaster.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";

/// eth-infinitism's VerifyingPaymaster with its owner named at construction. BasePaymaster makes
/// msg.sender the owner; deployed through the deterministic-deployment proxy, msg.sender is the proxy,
/// which can call nothing, so the stake and deposit could never be withdrawn or the stake unlocked.
/// The owner (deposit, stake) changes in two steps, as the registry's does; the signer that sponsors
/// operations is another key, which the server holds and which can move nothing.
contract OwnedVerifyingPaymaster is VerifyingPaymaster, Ownable2Step {
    constructor(IEntryPoint entryPoint_, address verifyingSigner_, address owner_)
        VerifyingPaymaster(entryPoint_, verifyingSigner_)
    {
        _transferOwnership(owner_);
    }

    function transferOwnership(address newOwner) public override(Ownable, Ownable2Step) onlyOwner {
        Ownable2Step.transferOwnership(newOwner);
    }

    function _transferOwnership(address newOwner) internal override(Ownable, Ownable2Step) {
        Ownable2Step._transferOwnership(newOwner);
    }
}
