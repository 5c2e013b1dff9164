// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";

/// @notice An ERC-4626 vault built from OpenZeppelin's ERC4626 for tests. Its assets grow when underlying is sent
/// to it (a strategy's gain); the decimals offset gives shares 3 more decimals than the asset.
contract TestVault4626 is ERC4626 {
    constructor(IERC20 asset_) ERC20("Test Vault Share", "tvTUSD") ERC4626(asset_) {}

    function _decimalsOffset() internal pure override returns (uint8) {
        return 3;
    }
}
