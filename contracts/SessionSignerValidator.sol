// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

import {PackedUserOperation} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {IERC7579Validator, MODULE_TYPE_VALIDATOR} from "@openzeppelin/contracts/interfaces/draft-IERC7579.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// The two operations a merchant's vault lets a session signer make: issuing an invoice on a registry
/// and canceling one there. Everything else the vault does (refunds, withdrawals, sessions) is its
/// owner's alone.
interface IInvoiceIssuer {
    function issueInvoice(address registry, address token, uint256 amount, uint64 dueAt, bytes32 metaHash, string calldata uri)
        external
        returns (uint256 id);

    function cancelInvoice(address registry, uint256 invoice) external;
}

/// An ERC-7579 validator that holds a merchant vault's server signer (SPEC 2.9) to what its owner
/// allowed: one key may sign the vault's `issueInvoice` and `cancelInvoice` on one registry, until a
/// time the owner chose, and nothing else. The vault's owner installs it with those three values
/// (its typed StartSession message) and removes it (EndSession); the server holding the key can do no
/// more than this module accepts, whatever it sends. It reads only its own storage for the calling
/// account (ERC-7562).
contract SessionSignerValidator is IERC7579Validator {
    struct Session {
        address signer;
        address registry;
        uint48 validUntil;
    }

    mapping(address account => Session) private _sessions;

    event SessionStarted(address indexed account, address indexed signer, address registry, uint48 validUntil);
    event SessionEnded(address indexed account);

    error InvalidSession();

    /// `data`: abi.encode(signer, registry, validUntil), all set and the end still ahead.
    function onInstall(bytes calldata data) external {
        (address signer, address registry, uint48 validUntil) = abi.decode(data, (address, address, uint48));
        if (signer == address(0) || registry == address(0) || validUntil <= block.timestamp) revert InvalidSession();
        _sessions[msg.sender] = Session(signer, registry, validUntil);
        emit SessionStarted(msg.sender, signer, registry, validUntil);
    }

    function onUninstall(bytes calldata) external {
        delete _sessions[msg.sender];
        emit SessionEnded(msg.sender);
    }

    function isModuleType(uint256 moduleTypeId) external pure returns (bool) {
        return moduleTypeId == MODULE_TYPE_VALIDATOR;
    }

    /// The session of `account`: its signer, registry and end (all zero when none is installed).
    function sessionOf(address account) external view returns (address signer, address registry, uint48 validUntil) {
        Session memory session = _sessions[account];
        return (session.signer, session.registry, session.validUntil);
    }

    /// Valid only for the vault's issueInvoice or cancelInvoice on the session's registry, signed by
    /// the session's key over the operation's hash (EIP-191: a server signs it, not a person), and
    /// only until the session ends: the EntryPoint refuses it after.
    function validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash) external view returns (uint256) {
        Session memory session = _sessions[msg.sender];
        if (session.signer == address(0) || !_allowedCall(userOp.callData, session.registry)) {
            return ERC4337Utils.SIG_VALIDATION_FAILED;
        }
        (address signer, ECDSA.RecoverError err,) =
            ECDSA.tryRecover(MessageHashUtils.toEthSignedMessageHash(userOpHash), userOp.signature);
        if (err != ECDSA.RecoverError.NoError || signer != session.signer) return ERC4337Utils.SIG_VALIDATION_FAILED;
        return ERC4337Utils.packValidationData(true, 0, session.validUntil);
    }

    /// A session signs operations, never messages on the vault's behalf.
    function isValidSignatureWithSender(address, bytes32, bytes calldata) external pure returns (bytes4) {
        return 0xffffffff;
    }

    function _allowedCall(bytes calldata callData, address registry) private pure returns (bool) {
        if (callData.length < 36) return false;
        bytes4 selector = bytes4(callData[:4]);
        if (selector != IInvoiceIssuer.issueInvoice.selector && selector != IInvoiceIssuer.cancelInvoice.selector) return false;
        // compared as the word it is: a malformed address fails here softly rather than reverting
        return uint256(bytes32(callData[4:36])) == uint256(uint160(registry));
    }
}
