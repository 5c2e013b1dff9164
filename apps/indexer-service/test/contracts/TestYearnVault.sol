// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface ITestERC20 {
    function decimals() external view returns (uint8);
    function balanceOf(address) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @notice A Yearn-V2-style vault for tests: the vault is its share token (decimals of the underlying), `token()`
/// names the underlying, `pricePerShare()` is the underlying one whole share is worth, and Deposit/Withdraw carry
/// the recipient, the shares and the underlying amount. Assets grow when underlying is sent to it.
contract TestYearnVault {
    string public constant name = "Test Yearn Vault";
    string public constant symbol = "yvTUSD";
    ITestERC20 public immutable token;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed sender, address indexed receiver, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Deposit(address indexed recipient, uint256 shares, uint256 amount);
    event Withdraw(address indexed recipient, uint256 shares, uint256 amount);

    constructor(ITestERC20 token_) {
        token = token_;
        decimals = token_.decimals();
    }

    function totalAssets() public view returns (uint256) {
        return token.balanceOf(address(this));
    }

    function pricePerShare() external view returns (uint256) {
        uint256 one = 10 ** uint256(decimals);
        return totalSupply == 0 ? one : (one * totalAssets()) / totalSupply;
    }

    function deposit(uint256 amount, address recipient) external returns (uint256 shares) {
        shares = totalSupply == 0 ? amount : (amount * totalSupply) / totalAssets();
        require(token.transferFrom(msg.sender, address(this), amount), "transferFrom");
        totalSupply += shares;
        balanceOf[recipient] += shares;
        emit Transfer(address(0), recipient, shares);
        emit Deposit(recipient, shares, amount);
    }

    function withdraw(uint256 shares, address recipient) external returns (uint256 amount) {
        amount = (shares * totalAssets()) / totalSupply;
        balanceOf[msg.sender] -= shares;
        totalSupply -= shares;
        emit Transfer(msg.sender, address(0), shares);
        require(token.transfer(recipient, amount), "transfer");
        emit Withdraw(recipient, shares, amount);
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

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
