// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IRouterToken {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

interface IRouterPair {
    function mint(address to) external returns (uint256);
    function burn(address to) external returns (uint256, uint256);
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external;
    function token0() external view returns (address);
    function token1() external view returns (address);
}

/// @notice Moves tokens and calls the pool in one transaction, so the Swap's sender is this router
/// while the transaction sender is the user.
contract TestRouter {
    function addLiquidity(IRouterPair pair, uint256 amount0, uint256 amount1, address to) external returns (uint256) {
        IRouterToken(pair.token0()).transferFrom(msg.sender, address(pair), amount0);
        IRouterToken(pair.token1()).transferFrom(msg.sender, address(pair), amount1);
        return pair.mint(to);
    }

    function removeLiquidity(IRouterPair pair, uint256 liquidity, address to) external returns (uint256, uint256) {
        IRouterToken(address(pair)).transferFrom(msg.sender, address(pair), liquidity);
        return pair.burn(to);
    }

    function swap(IRouterPair pair, address tokenIn, uint256 amountIn, uint256 amount0Out, uint256 amount1Out, address to) external {
        if (amountIn > 0) IRouterToken(tokenIn).transferFrom(msg.sender, address(pair), amountIn);
        pair.swap(amount0Out, amount1Out, to);
    }
}
