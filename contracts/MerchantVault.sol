// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

import {AccountERC7579} from "@openzeppelin/contracts/account/extensions/draft-AccountERC7579.sol";
import {Account} from "@openzeppelin/contracts/account/Account.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {PackedUserOperation, IEntryPoint} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {MODULE_TYPE_VALIDATOR} from "@openzeppelin/contracts/interfaces/draft-IERC7579.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {Calldata} from "@openzeppelin/contracts/utils/Calldata.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {InvoiceRegistry} from "./InvoiceRegistry.sol";
import {IInvoiceIssuer, SessionSignerValidator} from "./SessionSignerValidator.sol";

/// A merchant's vault (SPEC 2.1): an ERC-4337 account with ERC-7579 modules (OpenZeppelin's
/// AccountERC7579) that receives the merchant's payments and does six things, each a function of its
/// own: issue and cancel invoices, refund a payer, withdraw, and start or end the server signer's
/// session. Its owner authorises each as a typed message the owner's wallet shows in full (what, on
/// which registry, how much, to whom, until when, and the operation's hash), never a bare hash; the
/// session module (SessionSignerValidator) may authorise issuing and canceling only. Nothing else
/// validates: no arbitrary call, no other module.
contract MerchantVault is AccountERC7579, EIP712, Initializable, IInvoiceIssuer {
    using SafeERC20 for IERC20;

    bytes32 public constant ISSUE_TYPEHASH = keccak256(
        "Issue(address registry,address token,uint256 amount,uint64 dueAt,bytes32 metaHash,string tokenURI,address vault,uint256 validUntil,bytes32 operation)"
    );
    bytes32 public constant CANCEL_TYPEHASH =
        keccak256("Cancel(address registry,uint256 invoice,address vault,uint256 validUntil,bytes32 operation)");
    bytes32 public constant REFUND_TYPEHASH = keccak256(
        "Refund(address registry,uint256 invoice,address payer,address token,uint256 amount,address vault,uint256 validUntil,bytes32 operation)"
    );
    bytes32 public constant WITHDRAWAL_TYPEHASH = keccak256(
        "Withdrawal(address token,uint256 amount,address to,address vault,uint256 validUntil,bytes32 operation)"
    );
    bytes32 public constant START_SESSION_TYPEHASH = keccak256(
        "StartSession(address signer,address registry,uint256 sessionUntil,address vault,uint256 validUntil,bytes32 operation)"
    );
    bytes32 public constant END_SESSION_TYPEHASH =
        keccak256("EndSession(address vault,uint256 validUntil,bytes32 operation)");

    /// The only session module this vault installs.
    SessionSignerValidator public immutable sessionValidator;

    address public owner;

    event OwnerSet(address indexed owner);

    error RefundDiffers(uint256 invoice);
    error InvalidDestination(address to);

    constructor(SessionSignerValidator sessionValidator_) EIP712("svc-checkout merchant vault", "1") {
        sessionValidator = sessionValidator_;
        _disableInitializers();
    }

    function initialize(address owner_) external initializer {
        owner = owner_;
        emit OwnerSet(owner_);
    }

    function entryPoint() public pure override returns (IEntryPoint) {
        return ERC4337Utils.ENTRYPOINT_V07;
    }

    // ---- what the vault does: each only through the EntryPoint, as a validated operation ----

    function issueInvoice(address registry, address token, uint256 amount, uint64 dueAt, bytes32 metaHash, string calldata uri)
        external
        onlyEntryPointOrSelf
        returns (uint256 id)
    {
        return InvoiceRegistry(registry).issue(token, amount, dueAt, metaHash, uri);
    }

    function cancelInvoice(address registry, uint256 invoice) external onlyEntryPointOrSelf {
        InvoiceRegistry(registry).cancel(invoice);
    }

    /// Sends `amount` back to the invoice's payer through the registry, which records it; reverts
    /// unless the registry names exactly this payer and token for the invoice.
    function refundInvoice(address registry, uint256 invoice, address payer, address token, uint256 amount)
        external
        onlyEntryPointOrSelf
    {
        InvoiceRegistry.Invoice memory held = InvoiceRegistry(registry).invoices(invoice);
        if (held.payer != payer || held.token != token) revert RefundDiffers(invoice);
        IERC20(token).forceApprove(registry, amount);
        InvoiceRegistry(registry).refund(invoice, amount);
    }

    /// Sends `amount` of `token` (address zero: the chain's own currency) to `to`.
    function withdraw(address token, uint256 amount, address to) external onlyEntryPointOrSelf {
        if (to == address(0) || to == address(this)) revert InvalidDestination(to);
        if (token == address(0)) Address.sendValue(payable(to), amount);
        else IERC20(token).safeTransfer(to, amount);
    }

    /// Lets `signer` issue and cancel on `registry` until `sessionUntil`, replacing any session before.
    function startSession(address signer, address registry, uint48 sessionUntil) external onlyEntryPointOrSelf {
        if (isModuleInstalled(MODULE_TYPE_VALIDATOR, address(sessionValidator), Calldata.emptyBytes())) {
            _uninstallModule(MODULE_TYPE_VALIDATOR, address(sessionValidator), "");
        }
        _installModule(MODULE_TYPE_VALIDATOR, address(sessionValidator), abi.encode(signer, registry, sessionUntil));
    }

    function endSession() external onlyEntryPointOrSelf {
        _uninstallModule(MODULE_TYPE_VALIDATOR, address(sessionValidator), "");
    }

    // ---- validation ----

    /// The installed session module validates what it was installed for (its address in the nonce's
    /// key); otherwise only the owner does, and only one of the vault's own operations, signed as its
    /// typed message. The signature is the message's end (6 bytes, big-endian seconds, never 0) then
    /// the owner's 65-byte ECDSA signature.
    function _validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, bytes calldata signature)
        internal
        override
        returns (uint256)
    {
        address module = _extractUserOpValidator(userOp);
        if (module != address(0)) {
            return module == address(sessionValidator) && isModuleInstalled(MODULE_TYPE_VALIDATOR, module, Calldata.emptyBytes())
                ? sessionValidator.validateUserOp(userOp, userOpHash)
                : ERC4337Utils.SIG_VALIDATION_FAILED;
        }
        if (signature.length != 71) return ERC4337Utils.SIG_VALIDATION_FAILED;
        uint48 validUntil = uint48(bytes6(signature[:6]));
        if (validUntil == 0) return ERC4337Utils.SIG_VALIDATION_FAILED;
        (bool known, bytes32 structHash) = _ownerMessage(userOp.callData, validUntil, userOpHash);
        if (!known) return ERC4337Utils.SIG_VALIDATION_FAILED;
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(_hashTypedDataV4(structHash), signature[6:]);
        if (err != ECDSA.RecoverError.NoError || signer != owner) return ERC4337Utils.SIG_VALIDATION_FAILED;
        return ERC4337Utils.packValidationData(true, 0, validUntil);
    }

    /// No signer outside the typed messages above: a bare hash proves nothing here.
    function _rawSignatureValidation(bytes32, bytes calldata) internal pure override returns (bool) {
        return false;
    }

    /// The typed message's struct hash for a call of one of the vault's owner operations.
    function _ownerMessage(bytes calldata callData, uint48 validUntil, bytes32 operation)
        private
        view
        returns (bool, bytes32)
    {
        if (callData.length < 4) return (false, 0);
        bytes4 selector = bytes4(callData[:4]);
        bytes calldata args = callData[4:];
        bytes memory tail = abi.encode(address(this), uint256(validUntil), operation);
        if (selector == this.issueInvoice.selector) {
            (address registry, address token, uint256 amount, uint64 dueAt, bytes32 metaHash, string memory uri) =
                abi.decode(args, (address, address, uint256, uint64, bytes32, string));
            return (
                true,
                keccak256(
                    bytes.concat(
                        abi.encode(ISSUE_TYPEHASH, registry, token, amount, dueAt, metaHash, keccak256(bytes(uri))), tail
                    )
                )
            );
        }
        if (selector == this.cancelInvoice.selector) {
            (address registry, uint256 invoice) = abi.decode(args, (address, uint256));
            return (true, keccak256(bytes.concat(abi.encode(CANCEL_TYPEHASH, registry, invoice), tail)));
        }
        if (selector == this.refundInvoice.selector) {
            (address registry, uint256 invoice, address payer, address token, uint256 amount) =
                abi.decode(args, (address, uint256, address, address, uint256));
            return (
                true, keccak256(bytes.concat(abi.encode(REFUND_TYPEHASH, registry, invoice, payer, token, amount), tail))
            );
        }
        if (selector == this.withdraw.selector) {
            (address token, uint256 amount, address to) = abi.decode(args, (address, uint256, address));
            return (true, keccak256(bytes.concat(abi.encode(WITHDRAWAL_TYPEHASH, token, amount, to), tail)));
        }
        if (selector == this.startSession.selector) {
            (address signer, address registry, uint48 sessionUntil) = abi.decode(args, (address, address, uint48));
            return (
                true,
                keccak256(bytes.concat(abi.encode(START_SESSION_TYPEHASH, signer, registry, uint256(sessionUntil)), tail))
            );
        }
        if (selector == this.endSession.selector) {
            return (true, keccak256(bytes.concat(abi.encode(END_SESSION_TYPEHASH), tail)));
        }
        return (false, 0);
    }
}
