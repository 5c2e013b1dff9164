// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IBalanceToken {
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @notice A constant-product pool that is its own ERC-20 LP token (18 decimals), emitting UniswapV2-style events.
/// Unlike UniswapV2 it allows swaps with zero output, so tests can produce zero-amount Swap logs.
contract TestPair {
    string public constant name = "Test LP";
    string public constant symbol = "TLP";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    address public immutable token0;
    address public immutable token1;
    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);
    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);
    event Sync(uint112 reserve0, uint112 reserve1);

    constructor(address token0_, address token1_) {
        token0 = token0_;
        token1 = token1_;
    }

    function getReserves() external view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
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

    /// @notice Mints LP for tokens sent to the pool since the last update.
    function mint(address to) external returns (uint256 liquidity) {
        uint256 balance0 = IBalanceToken(token0).balanceOf(address(this));
        uint256 balance1 = IBalanceToken(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - reserve0;
        uint256 amount1 = balance1 - reserve1;
        if (totalSupply == 0) liquidity = _sqrt(amount0 * amount1);
        else liquidity = _min((amount0 * totalSupply) / reserve0, (amount1 * totalSupply) / reserve1);
        require(liquidity > 0, "liquidity");
        totalSupply += liquidity;
        balanceOf[to] += liquidity;
        emit Transfer(address(0), to, liquidity);
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1);
    }

    /// @notice Burns the LP held by the pool itself and pays out both tokens pro rata.
    function burn(address to) external returns (uint256 amount0, uint256 amount1) {
        uint256 liquidity = balanceOf[address(this)];
        uint256 balance0 = IBalanceToken(token0).balanceOf(address(this));
        uint256 balance1 = IBalanceToken(token1).balanceOf(address(this));
        amount0 = (liquidity * balance0) / totalSupply;
        amount1 = (liquidity * balance1) / totalSupply;
        balanceOf[address(this)] = 0;
        totalSupply -= liquidity;
        emit Transfer(address(this), address(0), liquidity);
        IBalanceToken(token0).transfer(to, amount0);
        IBalanceToken(token1).transfer(to, amount1);
        _update(balance0 - amount0, balance1 - amount1);
        emit Burn(msg.sender, amount0, amount1, to);
    }

    /// @notice Pays out the requested amounts; what was sent in beforehand must keep the product (0.3% fee on input).
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external {
        require(amount0Out < reserve0 && amount1Out < reserve1, "reserves");
        if (amount0Out > 0) IBalanceToken(token0).transfer(to, amount0Out);
        if (amount1Out > 0) IBalanceToken(token1).transfer(to, amount1Out);
        uint256 balance0 = IBalanceToken(token0).balanceOf(address(this));
        uint256 balance1 = IBalanceToken(token1).balanceOf(address(this));
        uint256 amount0In = balance0 > reserve0 - amount0Out ? balance0 - (reserve0 - amount0Out) : 0;
        uint256 amount1In = balance1 > reserve1 - amount1Out ? balance1 - (reserve1 - amount1Out) : 0;
        require((balance0 * 1000 - amount0In * 3) * (balance1 * 1000 - amount1In * 3) >= uint256(reserve0) * reserve1 * 1_000_000, "K");
        _update(balance0, balance1);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _update(uint256 balance0, uint256 balance1) private {
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0, reserve1);
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }

    function _min(uint256 a, uint256 b) private pure returns (uint256) {
        return a < b ? a : b;
    }
}
