// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice A minimal ERC-20 for tests: anyone can mint, decimals are chosen at deployment.
contract TestToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    /// @notice Many transfers in one transaction, for generated workloads: mints where `from` is the zero address,
    /// moves otherwise; each emits its Transfer.
    function scatter(address[] calldata from, address[] calldata to, uint256[] calldata value) external {
        for (uint256 i = 0; i < to.length; i++) {
            if (from[i] == address(0)) {
                totalSupply += value[i];
                balanceOf[to[i]] += value[i];
                emit Transfer(address(0), to[i], value[i]);
            } else {
                _move(from[i], to[i], value[i]);
            }
        }
    }

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
