// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// One ERC-721 token per invoice. The merchant (its vault) issues and may cancel while Issued; a payer
/// vault pays with an EIP-2612 permit in the same call, so a payment needs no prior approval. Its
/// owner (fees, treasury, accepted tokens) changes in two steps: the new owner must accept, so a
/// mistyped address cannot take it, and a multisig can hold it.
contract InvoiceRegistry is ERC721, Ownable2Step {
    using SafeERC20 for IERC20;

    enum Status {
        None,
        Issued,
        Paid,
        Canceled
    }

    struct Invoice {
        address merchant;
        Status status;
        uint64 invoiceNumber;
        address token;
        uint64 issuedAt;
        address payer;
        uint64 dueAt;
        uint64 paidAt;
        uint256 amount;
        bytes32 metaHash;
    }

    uint16 public constant MAX_FEE_BPS = 1_000;

    uint256 public invoiceCount;
    address public treasury;
    /// The retail schedule: the rate every merchant pays unless it has an override.
    uint16 public retailFeeBps;
    /// Per-merchant override; zero means "use the retail schedule", never "no fee".
    mapping(address merchant => uint16) public feeOverrideBps;
    mapping(address token => bool) public acceptedToken;
    mapping(address merchant => uint64) public merchantInvoiceCount;

    mapping(uint256 id => Invoice) private _invoices;
    mapping(uint256 id => string) private _tokenURIs;

    event InvoiceIssued(
        uint256 indexed id,
        address indexed merchant,
        address indexed token,
        uint256 amount,
        uint64 invoiceNumber,
        uint64 dueAt,
        bytes32 metaHash
    );
    event InvoicePaid(
        uint256 indexed id, address indexed payer, address indexed merchant, uint256 gross, uint256 fee, uint256 net, uint16 feeBps
    );
    event InvoiceCanceled(uint256 indexed id, address indexed merchant);
    event TokenAccepted(address indexed token, bool accepted);
    event RetailFeeSet(uint16 feeBps);
    event FeeOverrideSet(address indexed merchant, uint16 feeBps);
    event TreasurySet(address treasury);

    error UnknownInvoice(uint256 id);
    error NotMerchant(uint256 id, address caller);
    error NotIssued(uint256 id, Status status);
    error TokenNotAccepted(address token);
    error InvalidAmount();
    error InvalidDueDate();
    error FeeTooHigh(uint16 feeBps);
    error ZeroAddress();

    constructor(address owner_, address treasury_, uint16 retailFeeBps_)
        ERC721("svc-checkout Invoice", "INVOICE")
        Ownable(owner_)
    {
        _setTreasury(treasury_);
        _setRetailFee(retailFeeBps_);
    }

    // ---- merchant ----

    function issue(address token, uint256 amount, uint64 dueAt, bytes32 metaHash, string calldata uri)
        external
        returns (uint256 id)
    {
        if (!acceptedToken[token]) revert TokenNotAccepted(token);
        if (amount == 0) revert InvalidAmount();
        if (dueAt < block.timestamp) revert InvalidDueDate();

        id = ++invoiceCount;
        uint64 number = ++merchantInvoiceCount[msg.sender];
        _invoices[id] = Invoice({
            merchant: msg.sender,
            status: Status.Issued,
            invoiceNumber: number,
            token: token,
            issuedAt: uint64(block.timestamp),
            payer: address(0),
            dueAt: dueAt,
            paidAt: 0,
            amount: amount,
            metaHash: metaHash
        });
        _tokenURIs[id] = uri;
        _mint(msg.sender, id);
        emit InvoiceIssued(id, msg.sender, token, amount, number, dueAt, metaHash);
    }

    function cancel(uint256 id) external {
        Invoice storage inv = _existing(id);
        if (msg.sender != inv.merchant) revert NotMerchant(id, msg.sender);
        if (inv.status != Status.Issued) revert NotIssued(id, inv.status);
        inv.status = Status.Canceled;
        emit InvoiceCanceled(id, msg.sender);
    }

    // ---- payer ----

    /// Called by the payer's vault. The permit is attempted but not required: if someone already
    /// submitted it (front-running the nonce), the allowance it set still pays the invoice.
    function pay(uint256 id, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        Invoice storage inv = _existing(id);
        if (inv.status != Status.Issued) revert NotIssued(id, inv.status);
        inv.status = Status.Paid;
        inv.payer = msg.sender;
        inv.paidAt = uint64(block.timestamp);

        uint256 gross = inv.amount;
        try IERC20Permit(inv.token).permit(msg.sender, address(this), gross, deadline, v, r, s) {} catch {}

        uint16 bps = feeBpsFor(inv.merchant);
        uint256 fee = gross * bps / 10_000;
        uint256 net = gross - fee;
        IERC20 token = IERC20(inv.token);
        token.safeTransferFrom(msg.sender, inv.merchant, net);
        if (fee > 0) token.safeTransferFrom(msg.sender, treasury, fee);
        emit InvoicePaid(id, msg.sender, inv.merchant, gross, fee, net, bps);
    }

    // ---- reads ----

    function invoices(uint256 id) external view returns (Invoice memory) {
        return _existing(id);
    }

    /// The rate a payment made now would be charged.
    function feeBpsFor(address merchant) public view returns (uint16) {
        uint16 custom = feeOverrideBps[merchant];
        return custom == 0 ? retailFeeBps : custom;
    }

    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireOwned(id);
        return _tokenURIs[id];
    }

    // ---- owner ----

    function setAcceptedToken(address token, bool accepted) external onlyOwner {
        if (token == address(0)) revert ZeroAddress();
        acceptedToken[token] = accepted;
        emit TokenAccepted(token, accepted);
    }

    function setRetailFee(uint16 feeBps) external onlyOwner {
        _setRetailFee(feeBps);
    }

    function setFeeOverride(address merchant, uint16 feeBps) external onlyOwner {
        if (feeBps > MAX_FEE_BPS) revert FeeTooHigh(feeBps);
        feeOverrideBps[merchant] = feeBps;
        emit FeeOverrideSet(merchant, feeBps);
    }

    function setTreasury(address treasury_) external onlyOwner {
        _setTreasury(treasury_);
    }

    function _setRetailFee(uint16 feeBps) private {
        if (feeBps > MAX_FEE_BPS) revert FeeTooHigh(feeBps);
        retailFeeBps = feeBps;
        emit RetailFeeSet(feeBps);
    }

    function _setTreasury(address treasury_) private {
        if (treasury_ == address(0)) revert ZeroAddress();
        treasury = treasury_;
        emit TreasurySet(treasury_);
    }

    function _existing(uint256 id) private view returns (Invoice storage inv) {
        inv = _invoices[id];
        if (inv.status == Status.None) revert UnknownInvoice(id);
    }
}
