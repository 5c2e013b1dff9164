// SPDX-License-Identifier: MIT
// A minimal smart-contract wallet for tests: EIP-1271 says a signature is its own when its owner key made it.
pragma solidity ^0.8.20;

contract OwnedWallet {
    bytes4 internal constant MAGIC = 0x1626ba7e;
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 32))
            v := byte(0, calldataload(add(signature.offset, 64)))
        }
        return ecrecover(hash, v, r, s) == owner ? MAGIC : bytes4(0xffffffff);
    }
}
