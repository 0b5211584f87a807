// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// One ERC-721 token per invoice. The merchant (its vault) issues and may cancel while Issued; a payer
/// vault pays with an EIP-2612 permit in the same call, so a payment needs no prior approval; the
/// merchant may refund a paid invoice, to the payer recorded here and to no one else, up to what was
/// paid. Its owner (fees, treasury, accepted tokens) changes in two steps: the new owner must accept,
/// so a mistyped address cannot take it, and a multisig can hold it. A fee or treasury change takes
/// effect FEE_CHANGE_DELAY after it is announced (an event and a view say what and when), longer than
/// any payment can be in flight: a payment never pays a fee that was not in force, or announced, when
/// its payer looked.
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
    /// How long an announced fee or treasury change waits: a permit lasts at most a day and a
    /// sponsored operation less, so no payment in flight when a change is announced meets it.
    uint64 public constant FEE_CHANGE_DELAY = 3 days;

    /// A rate in force, and the one announced to replace it at `nextAt` (0: none announced).
    struct FeeSchedule {
        uint16 current;
        uint16 next;
        uint64 nextAt;
    }

    struct TreasurySchedule {
        address current;
        address next;
        uint64 nextAt;
    }

    uint256 public invoiceCount;
    mapping(address token => bool) public acceptedToken;
    mapping(address merchant => uint64) public merchantInvoiceCount;

    /// The retail schedule: the rate every merchant pays unless it has an override.
    FeeSchedule private _retailFee;
    /// Per-merchant override; zero means "use the retail schedule", never "no fee".
    mapping(address merchant => FeeSchedule) private _feeOverride;
    TreasurySchedule private _treasury;

    mapping(uint256 id => Invoice) private _invoices;
    mapping(uint256 id => string) private _tokenURIs;
    mapping(uint256 id => uint256) private _refunded;

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
    /// `refundedTotal`: everything refunded for the invoice so far, this refund included.
    event InvoiceRefunded(
        uint256 indexed id, address indexed payer, address indexed merchant, uint256 amount, uint256 refundedTotal
    );
    event TokenAccepted(address indexed token, bool accepted);
    event RetailFeeScheduled(uint16 feeBps, uint64 effectiveAt);
    event FeeOverrideScheduled(address indexed merchant, uint16 feeBps, uint64 effectiveAt);
    event TreasuryScheduled(address treasury, uint64 effectiveAt);

    error UnknownInvoice(uint256 id);
    error NotMerchant(uint256 id, address caller);
    error NotIssued(uint256 id, Status status);
    error NotPaid(uint256 id, Status status);
    error RefundTooLarge(uint256 id, uint256 remaining);
    error TokenNotAccepted(address token);
    error InvalidAmount();
    error InvalidDueDate();
    error FeeTooHigh(uint16 feeBps);
    error ZeroAddress();

    constructor(address owner_, address treasury_, uint16 retailFeeBps_)
        ERC721("svc-checkout Invoice", "INVOICE")
        Ownable(owner_)
    {
        if (treasury_ == address(0)) revert ZeroAddress();
        if (retailFeeBps_ > MAX_FEE_BPS) revert FeeTooHigh(retailFeeBps_);
        // the first schedule is in force from the start: nobody has paid under another
        _treasury.current = treasury_;
        _retailFee.current = retailFeeBps_;
        emit TreasuryScheduled(treasury_, uint64(block.timestamp));
        emit RetailFeeScheduled(retailFeeBps_, uint64(block.timestamp));
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
        if (fee > 0) token.safeTransferFrom(msg.sender, treasury(), fee);
        emit InvoicePaid(id, msg.sender, inv.merchant, gross, fee, net, bps);
    }

    // ---- merchant, after payment ----

    /// Sends `amount` of the invoice's token from the merchant back to the payer recorded at payment,
    /// and nowhere else. Several refunds may follow one another until they add up to the gross amount
    /// paid: the payer can be made whole; the fee is the merchant's to bear. The merchant approves this
    /// registry for `amount` first (its vault does both in one operation).
    function refund(uint256 id, uint256 amount) external {
        Invoice storage inv = _existing(id);
        if (msg.sender != inv.merchant) revert NotMerchant(id, msg.sender);
        if (inv.status != Status.Paid) revert NotPaid(id, inv.status);
        if (amount == 0) revert InvalidAmount();
        uint256 refundedTotal = _refunded[id] + amount;
        if (refundedTotal > inv.amount) revert RefundTooLarge(id, inv.amount - _refunded[id]);
        _refunded[id] = refundedTotal;
        IERC20(inv.token).safeTransferFrom(msg.sender, inv.payer, amount);
        emit InvoiceRefunded(id, inv.payer, msg.sender, amount, refundedTotal);
    }

    // ---- reads ----

    function invoices(uint256 id) external view returns (Invoice memory) {
        return _existing(id);
    }

    /// What has been refunded of a paid invoice so far.
    function refundedAmount(uint256 id) external view returns (uint256) {
        _existing(id);
        return _refunded[id];
    }

    /// The rate a payment made now would be charged.
    function feeBpsFor(address merchant) public view returns (uint16) {
        uint16 custom = _inForce(_feeOverride[merchant]);
        return custom == 0 ? _inForce(_retailFee) : custom;
    }

    /// The rate announced to replace `merchant`'s, and when; (0, 0) when none is announced or the
    /// announced one is already in force. A rate of 0 here with a time means "back to retail".
    function feeChangeFor(address merchant) external view returns (uint16 nextFeeBps, uint64 effectiveAt) {
        FeeSchedule memory custom = _feeOverride[merchant];
        if (custom.nextAt > block.timestamp) return (custom.next == 0 ? _inForce(_retailFee) : custom.next, custom.nextAt);
        if (_inForce(custom) == 0 && _retailFee.nextAt > block.timestamp) return (_retailFee.next, _retailFee.nextAt);
        return (0, 0);
    }

    function retailFeeBps() external view returns (uint16) {
        return _inForce(_retailFee);
    }

    function feeOverrideBps(address merchant) external view returns (uint16) {
        return _inForce(_feeOverride[merchant]);
    }

    function treasury() public view returns (address) {
        TreasurySchedule memory t = _treasury;
        return t.nextAt != 0 && block.timestamp >= t.nextAt ? t.next : t.current;
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

    /// Announces a new retail rate, in force FEE_CHANGE_DELAY from now; it replaces any announced
    /// rate not yet in force.
    function setRetailFee(uint16 feeBps) external onlyOwner {
        if (feeBps > MAX_FEE_BPS) revert FeeTooHigh(feeBps);
        uint64 effectiveAt = _schedule(_retailFee, feeBps);
        emit RetailFeeScheduled(feeBps, effectiveAt);
    }

    /// Announces `merchant`'s own rate (0: back to retail), in force FEE_CHANGE_DELAY from now.
    function setFeeOverride(address merchant, uint16 feeBps) external onlyOwner {
        if (feeBps > MAX_FEE_BPS) revert FeeTooHigh(feeBps);
        uint64 effectiveAt = _schedule(_feeOverride[merchant], feeBps);
        emit FeeOverrideScheduled(merchant, feeBps, effectiveAt);
    }

    /// Announces where fees go, from FEE_CHANGE_DELAY from now.
    function setTreasury(address treasury_) external onlyOwner {
        if (treasury_ == address(0)) revert ZeroAddress();
        TreasurySchedule storage t = _treasury;
        t.current = treasury();
        t.next = treasury_;
        t.nextAt = uint64(block.timestamp) + FEE_CHANGE_DELAY;
        emit TreasuryScheduled(treasury_, t.nextAt);
    }

    function _schedule(FeeSchedule storage schedule, uint16 feeBps) private returns (uint64 effectiveAt) {
        schedule.current = _inForce(schedule);
        schedule.next = feeBps;
        effectiveAt = uint64(block.timestamp) + FEE_CHANGE_DELAY;
        schedule.nextAt = effectiveAt;
    }

    function _inForce(FeeSchedule memory schedule) private view returns (uint16) {
        return schedule.nextAt != 0 && block.timestamp >= schedule.nextAt ? schedule.next : schedule.current;
    }

    function _existing(uint256 id) private view returns (Invoice storage inv) {
        inv = _invoices[id];
        if (inv.status == Status.None) revert UnknownInvoice(id);
    }
}
