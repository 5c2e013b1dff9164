// SPDX-License-Identifier: MIT
// Pays out an ERC-20 the project funds: Merkle-root epochs (one claim per account and epoch) and EIP-712 burn vouchers (one redemption per nonce).
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title PointwiseClaims
/// @notice Holds a token balance (funded by a plain transfer) and pays it out in two ways:
///         a claim of an account's amount in a published epoch (leaf = keccak256(keccak256(abi.encode(account, amount))),
///         the OpenZeppelin StandardMerkleTree encoding), and the redemption of a burn voucher signed by `voucherSigner`.
contract PointwiseClaims is Ownable, EIP712 {
    using SafeERC20 for IERC20;

    /// @notice EIP-712 type hash of a burn voucher.
    bytes32 public constant BURN_VOUCHER_TYPEHASH =
        keccak256("BurnVoucher(address user,uint256 amount,uint256 nonce,uint256 expiry)");

    /// @notice The token paid out by claims and redemptions.
    IERC20 public immutable token;
    /// @notice The address whose EIP-712 signatures redeem burn vouchers.
    address public voucherSigner;
    /// @notice Merkle root of each published epoch (zero when unpublished).
    mapping(uint256 epoch => bytes32 root) public epochRoot;
    /// @notice Whether an account has claimed its amount of an epoch.
    mapping(uint256 epoch => mapping(address account => bool)) public claimed;
    /// @notice Whether a user's voucher nonce has been redeemed.
    mapping(address user => mapping(uint256 nonce => bool)) public voucherUsed;

    error ZeroAddress();
    error ZeroRoot();
    error RootAlreadySet(uint256 epoch);
    error UnknownEpoch(uint256 epoch);
    error AlreadyClaimed(uint256 epoch, address account);
    error InvalidProof();
    error VoucherExpired(uint256 expiry);
    error VoucherUsed(address user, uint256 nonce);
    error InvalidSignature();

    event RootPublished(uint256 indexed epoch, bytes32 root);
    event Claimed(uint256 indexed epoch, address indexed account, uint256 amount);
    event Redeemed(address indexed user, uint256 indexed nonce, uint256 amount);
    event VoucherSignerChanged(address indexed previousSigner, address indexed newSigner);
    event Withdrawn(address indexed to, uint256 amount);

    constructor(IERC20 token_, address voucherSigner_, address owner_) Ownable(owner_) EIP712("Pointwise Claims", "1") {
        if (address(token_) == address(0) || voucherSigner_ == address(0)) revert ZeroAddress();
        token = token_;
        voucherSigner = voucherSigner_;
        emit VoucherSignerChanged(address(0), voucherSigner_);
    }

    /// @notice Publishes the Merkle root of an epoch; each epoch's root is set once.
    function publishRoot(uint256 epoch, bytes32 root) external onlyOwner {
        if (root == bytes32(0)) revert ZeroRoot();
        if (epochRoot[epoch] != bytes32(0)) revert RootAlreadySet(epoch);
        epochRoot[epoch] = root;
        emit RootPublished(epoch, root);
    }

    /// @notice Pays `amount` to `account` when (account, amount) is a leaf of the epoch's tree; anyone may submit.
    function claim(uint256 epoch, address account, uint256 amount, bytes32[] calldata proof) external {
        bytes32 root = epochRoot[epoch];
        if (root == bytes32(0)) revert UnknownEpoch(epoch);
        if (claimed[epoch][account]) revert AlreadyClaimed(epoch, account);
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(account, amount))));
        if (!MerkleProof.verifyCalldata(proof, root, leaf)) revert InvalidProof();
        claimed[epoch][account] = true;
        emit Claimed(epoch, account, amount);
        token.safeTransfer(account, amount);
    }

    /// @notice Pays a burn voucher's `amount` to `user` once, when `voucherSigner` signed it and it has not expired.
    function redeem(address user, uint256 amount, uint256 nonce, uint256 expiry, bytes calldata signature) external {
        if (block.timestamp > expiry) revert VoucherExpired(expiry);
        if (voucherUsed[user][nonce]) revert VoucherUsed(user, nonce);
        bytes32 digest = voucherDigest(user, amount, nonce, expiry);
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(digest, signature);
        if (err != ECDSA.RecoverError.NoError || recovered != voucherSigner) revert InvalidSignature();
        voucherUsed[user][nonce] = true;
        emit Redeemed(user, nonce, amount);
        token.safeTransfer(user, amount);
    }

    /// @notice The EIP-712 digest a burn voucher's signature covers.
    function voucherDigest(address user, uint256 amount, uint256 nonce, uint256 expiry) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(BURN_VOUCHER_TYPEHASH, user, amount, nonce, expiry)));
    }

    /// @notice Replaces the voucher signer; vouchers signed by the previous signer stop redeeming.
    function setVoucherSigner(address newSigner) external onlyOwner {
        if (newSigner == address(0)) revert ZeroAddress();
        emit VoucherSignerChanged(voucherSigner, newSigner);
        voucherSigner = newSigner;
    }

    /// @notice Sends part of the unclaimed balance to `to` (for example when retiring the contract).
    function withdraw(address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        emit Withdrawn(to, amount);
        token.safeTransfer(to, amount);
    }
}
