// SPDX-License-Identifier: MIT
// An OpenZeppelin ERC-20 for the claims tests: the deployer receives the whole supply.
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract TestToken is ERC20 {
    constructor(uint256 supply) ERC20("Test Token", "TST") {
        _mint(msg.sender, supply);
    }
}
