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
/// a typed message its owner's wallet can show in full ("Pay invoice no. 2: 248.00 USDC to 0x… until
/// 14:05"), never a bare hash. The message names the registry, the invoice and the merchant's own
/// number for it, the merchant, the token, the amount, the merchant's fee rate, what is taken from
/// the owner's own account, this vault, the last second it is good for and the operation itself (its
/// userOpHash, so it authorises nothing else); at execution the vault holds the registry to it: an
/// invoice that is not Issued with exactly that number, merchant, token and amount, or a fee rate
/// other than the one signed, reverts the payment. The owner still drives the vault directly
/// (execute) for anything else.
contract PayerVault is SimpleAccount, IERC1271, EIP712 {
    using SafeERC20 for IERC20;

    bytes32 public constant PAYMENT_TYPEHASH = keccak256(
        "Payment(address registry,uint256 invoice,uint64 invoiceNumber,address merchant,address token,uint256 amount,uint16 feeBps,uint256 fromWallet,address vault,uint256 validUntil,bytes32 operation)"
    );
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    /// The token permit this vault expects its owner to have signed, while a payment runs: the only
    /// digest its ERC-1271 answer accepts (transient: gone when the transaction ends).
    bytes32 private transient expectedPermit;

    error InvoiceDiffers(uint256 invoice);
    error FeeDiffers(uint256 invoice, uint16 feeBps);
    error NotFromEntryPointOrOwner();

    constructor(IEntryPoint entryPoint_) SimpleAccount(entryPoint_) EIP712("svc-checkout vault", "3") {}

    /// Pays the invoice `terms` names from this vault; reverts unless the registry holds it Issued with
    /// exactly that number, merchant, token and amount, and charges the merchant exactly its fee rate.
    function payInvoice(InvoiceRegistry registry, Terms calldata terms, PermitSignature calldata permit) external {
        _requireFromEntryPointOrOwnerStrict();
        _pay(registry, terms, permit);
    }

    /// Takes `fromWallet` of the token from the owner's own account first (through the owner's permit,
    /// or an allowance someone already set by submitting that permit first), then pays as payInvoice.
    function payInvoiceFromWallet(
        InvoiceRegistry registry,
        Terms calldata terms,
        PermitSignature calldata permit,
        uint256 fromWallet,
        PermitSignature calldata funding
    ) external {
        _requireFromEntryPointOrOwnerStrict();
        try IERC20Permit(terms.token).permit(owner, address(this), fromWallet, funding.deadline, funding.v, funding.r, funding.s) {} catch {}
        IERC20(terms.token).safeTransferFrom(owner, address(this), fromWallet);
        _pay(registry, terms, permit);
    }

    /// Accepts only its owner's signature of the token permit a running payment expects: a signature
    /// made for another vault, for another spender or amount, or outside a payment, is refused.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (hash == bytes32(0) || hash != expectedPermit) return 0xffffffff;
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        if (err == ECDSA.RecoverError.NoError && signer == owner) return IERC1271.isValidSignature.selector;
        return 0xffffffff;
    }

    /// What the registry must hold for a payment, as its call names it.
    struct Terms {
        uint256 invoice;
        uint64 invoiceNumber;
        address merchant;
        address token;
        uint256 amount;
        uint16 feeBps;
    }

    /// What a payment operation's typed message says, less the vault and the operation.
    struct Payment {
        address registry;
        Terms terms;
        uint256 fromWallet;
        uint256 validUntil;
    }

    /// The EIP-712 digest the owner signs for a payment operation.
    function paymentDigest(Payment memory payment, bytes32 operation) public view returns (bytes32) {
        Terms memory t = payment.terms;
        return _hashTypedDataV4(
            keccak256(
                bytes.concat(
                    abi.encode(PAYMENT_TYPEHASH, payment.registry, t.invoice, t.invoiceNumber, t.merchant, t.token, t.amount),
                    abi.encode(t.feeBps, payment.fromWallet, address(this), payment.validUntil, operation)
                )
            )
        );
    }

    /// A UserOperation is valid only as one of the two payments, signed as their typed message; its
    /// window ends with the payment's permit, and a permit with no end (deadline 0, which the
    /// EntryPoint reads as "valid forever") is no payment. Reads nothing but this account's own
    /// storage (ERC-7562).
    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        view
        override
        returns (uint256 validationData)
    {
        (bool isPayment, Payment memory payment) = _paymentOf(userOp.callData);
        if (!isPayment || payment.validUntil == 0 || payment.validUntil > type(uint48).max) return SIG_VALIDATION_FAILED;
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(paymentDigest(payment, userOpHash), userOp.signature);
        if (err != ECDSA.RecoverError.NoError || signer != owner) return SIG_VALIDATION_FAILED;
        return _packValidationData(false, uint48(payment.validUntil), 0);
    }

    function _paymentOf(bytes calldata callData) private pure returns (bool, Payment memory payment) {
        if (callData.length < 4) return (false, payment);
        bytes4 selector = bytes4(callData[:4]);
        PermitSignature memory permit;
        if (selector == this.payInvoice.selector) {
            (payment.registry, payment.terms, permit) = abi.decode(callData[4:], (address, Terms, PermitSignature));
        } else if (selector == this.payInvoiceFromWallet.selector) {
            (payment.registry, payment.terms, permit, payment.fromWallet,) =
                abi.decode(callData[4:], (address, Terms, PermitSignature, uint256, PermitSignature));
        } else {
            return (false, payment);
        }
        payment.validUntil = permit.deadline;
        return (true, payment);
    }

    function _pay(InvoiceRegistry registry, Terms calldata t, PermitSignature calldata permit) private {
        InvoiceRegistry.Invoice memory held = registry.invoices(t.invoice);
        if (
            held.status != InvoiceRegistry.Status.Issued || held.invoiceNumber != t.invoiceNumber
                || held.merchant != t.merchant || held.token != t.token || held.amount != t.amount
        ) revert InvoiceDiffers(t.invoice);
        // the fee the payer's message named: a rate changed since would take a different share
        if (registry.feeBpsFor(t.merchant) != t.feeBps) revert FeeDiffers(t.invoice, t.feeBps);
        expectedPermit = _permitDigest(t.token, address(registry), t.amount, permit.deadline);
        registry.pay(t.invoice, permit.deadline, permit.v, permit.r, permit.s);
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
