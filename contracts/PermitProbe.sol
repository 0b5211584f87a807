// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// Never deployed: run as the init code of an eth_call. It deploys the owner's vault first when the
/// vault does not exist yet (as the UserOperation's factory call will), then submits the permit to
/// the token itself, so the answer is the token's own verdict, ECDSA or ERC-1271 alike.
/// Returns one word: 1 when the permit sets the allowance, 0 otherwise.
contract PermitProbe {
    constructor(
        address factory,
        bytes memory factoryData,
        address token,
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) {
        if (owner.code.length == 0 && factory != address(0)) {
            // solhint-disable-next-line avoid-low-level-calls
            (bool deployed,) = factory.call(factoryData);
            deployed;
        }
        uint256 valid;
        try IERC20Permit(token).permit(owner, spender, value, deadline, v, r, s) {
            valid = IERC20(token).allowance(owner, spender) == value ? 1 : 0;
        } catch {}
        assembly {
            mstore(0, valid)
            return(0, 32)
        }
    }
}
