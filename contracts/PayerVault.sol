// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

import {SimpleAccount} from "@account-abstraction/contracts/samples/SimpleAccount.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";
import {SIG_VALIDATION_FAILED, _packValidationData} from "@account-abstraction/contracts/core/Helpers.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {InvoiceRegistry} from "./InvoiceRegistry.sol";

/// An EIP-2612 permit's signature, as the token's permit takes it.
struct PermitSignature {
    uint256 deadline;
    uint8 v;
    bytes32 r;
    bytes32 s;
}

/// A payer's vault: SimpleAccount v0.7 whose only operations are invoice payments, each authorised by
/// a typed message its owner's wallet can show in full ("Pay invoice 2: 248.00 USDC to 0x… until
/// 14:05"), never a bare hash. The message names the invoice, the merchant, the token, the amount,
/// what is taken from the owner's own account, this vault, the last second it is good for and the
/// operation itself (its userOpHash, so it authorises nothing else); at execution the vault holds the
/// registry to it: an invoice that is not Issued with exactly that merchant, token and amount
/// reverts the payment. The owner still drives the vault directly (execute) for anything else.
contract PayerVault is SimpleAccount, IERC1271, EIP712 {
    using SafeERC20 for IERC20;

    bytes32 public constant PAYMENT_TYPEHASH = keccak256(
        "Payment(uint256 invoice,address merchant,address token,uint256 amount,uint256 fromWallet,address vault,uint256 validUntil,bytes32 operation)"
    );
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    /// The token permit this vault expects its owner to have signed, while a payment runs: the only
    /// digest its ERC-1271 answer accepts (transient: gone when the transaction ends).
    bytes32 private transient expectedPermit;

    error InvoiceDiffers(uint256 invoice);
    error NotFromEntryPointOrOwner();

    constructor(IEntryPoint entryPoint_) SimpleAccount(entryPoint_) EIP712("svc-checkout vault", "2") {}

    /// Pays `invoice` from this vault; reverts unless the registry holds it Issued with exactly this
    /// merchant, token and amount.
    function payInvoice(
        InvoiceRegistry registry,
        uint256 invoice,
        address merchant,
        address token,
        uint256 amount,
        PermitSignature calldata permit
    ) external {
        _requireFromEntryPointOrOwnerStrict();
        _pay(registry, invoice, merchant, token, amount, permit);
    }

    /// Takes `fromWallet` of the token from the owner's own account first (through the owner's permit,
    /// or an allowance someone already set by submitting that permit first), then pays as payInvoice.
    function payInvoiceFromWallet(
        InvoiceRegistry registry,
        uint256 invoice,
        address merchant,
        address token,
        uint256 amount,
        PermitSignature calldata permit,
        uint256 fromWallet,
        PermitSignature calldata funding
    ) external {
        _requireFromEntryPointOrOwnerStrict();
        try IERC20Permit(token).permit(owner, address(this), fromWallet, funding.deadline, funding.v, funding.r, funding.s) {} catch {}
        IERC20(token).safeTransferFrom(owner, address(this), fromWallet);
        _pay(registry, invoice, merchant, token, amount, permit);
    }

    /// Accepts only its owner's signature of the token permit a running payment expects: a signature
    /// made for another vault, for another spender or amount, or outside a payment, is refused.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (hash == bytes32(0) || hash != expectedPermit) return 0xffffffff;
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        if (err == ECDSA.RecoverError.NoError && signer == owner) return IERC1271.isValidSignature.selector;
        return 0xffffffff;
    }

    /// What a payment operation's typed message says, less the vault and the operation.
    struct Payment {
        uint256 invoice;
        address merchant;
        address token;
        uint256 amount;
        uint256 fromWallet;
        uint256 validUntil;
    }

    /// The EIP-712 digest the owner signs for a payment operation.
    function paymentDigest(Payment memory payment, bytes32 operation) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    PAYMENT_TYPEHASH,
                    payment.invoice,
                    payment.merchant,
                    payment.token,
                    payment.amount,
                    payment.fromWallet,
                    address(this),
                    payment.validUntil,
                    operation
                )
            )
        );
    }

    /// A UserOperation is valid only as one of the two payments, signed as their typed message; its
    /// window ends with the payment's permit. Reads nothing but this account's own storage (ERC-7562).
    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        view
        override
        returns (uint256 validationData)
    {
        (bool isPayment, Payment memory payment) = _paymentOf(userOp.callData);
        if (!isPayment || payment.validUntil > type(uint48).max) return SIG_VALIDATION_FAILED;
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(paymentDigest(payment, userOpHash), userOp.signature);
        if (err != ECDSA.RecoverError.NoError || signer != owner) return SIG_VALIDATION_FAILED;
        return _packValidationData(false, uint48(payment.validUntil), 0);
    }

    function _paymentOf(bytes calldata callData) private pure returns (bool, Payment memory payment) {
        if (callData.length < 4) return (false, payment);
        bytes4 selector = bytes4(callData[:4]);
        PermitSignature memory permit;
        if (selector == this.payInvoice.selector) {
            (, payment.invoice, payment.merchant, payment.token, payment.amount, permit) =
                abi.decode(callData[4:], (address, uint256, address, address, uint256, PermitSignature));
        } else if (selector == this.payInvoiceFromWallet.selector) {
            (, payment.invoice, payment.merchant, payment.token, payment.amount, permit, payment.fromWallet,) = abi.decode(
                callData[4:], (address, uint256, address, address, uint256, PermitSignature, uint256, PermitSignature)
            );
        } else {
            return (false, payment);
        }
        payment.validUntil = permit.deadline;
        return (true, payment);
    }

    function _pay(
        InvoiceRegistry registry,
        uint256 invoice,
        address merchant,
        address token,
        uint256 amount,
        PermitSignature calldata permit
    ) private {
        InvoiceRegistry.Invoice memory held = registry.invoices(invoice);
        if (
            held.status != InvoiceRegistry.Status.Issued || held.merchant != merchant || held.token != token
                || held.amount != amount
        ) revert InvoiceDiffers(invoice);
        expectedPermit = _permitDigest(token, address(registry), amount, permit.deadline);
        registry.pay(invoice, permit.deadline, permit.v, permit.r, permit.s);
        expectedPermit = bytes32(0);
    }

    /// The digest the token computes for this vault's permit to `spender`, at its current nonce.
    function _permitDigest(address token, address spender, uint256 value, uint256 deadline) private view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(PERMIT_TYPEHASH, address(this), spender, value, IERC20Permit(token).nonces(address(this)), deadline)
        );
        return keccak256(abi.encodePacked("\x19\x01", IERC20Permit(token).DOMAIN_SEPARATOR(), structHash));
    }

    /// SimpleAccount's check reverts with a string; a custom error is cheaper and says the same.
    function _requireFromEntryPointOrOwnerStrict() private view {
        if (msg.sender != address(entryPoint()) && msg.sender != owner) revert NotFromEntryPointOrOwner();
    }
}
