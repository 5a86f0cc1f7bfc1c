/// The bank's network API.
///
/// Synchronous, so that the demo's output is deterministic; a real client would be `async`.
public protocol BankAPI: Sendable {
    /// The customer's accounts.
    func fetchAccounts() -> [Account]
    /// The latest movements on one account, newest first.
    ///
    /// - Parameter id: The account number.
    /// - Returns: The movements; empty for an unknown account.
    func fetchTransactions(account id: Int) -> [Transaction]
    /// The customer's profile.
    func fetchProfile() -> Profile
}

/// The live API: an in-memory stand-in for the bank's HTTP service (the demo makes no network
/// requests).
public final class LiveBankAPI: BankAPI {
    private let accounts = [
        Account(id: 41, name: "Checking", balanceCents: 125_000),
        Account(id: 42, name: "Savings", balanceCents: 1_200_000),
        Account(id: 43, name: "Travel", balanceCents: 31_050),
    ]
    private let transactions = [
        41: [Transaction(memo: "Transfer from #42", amountCents: 50_000)],
        42: [
            Transaction(memo: "Interest", amountCents: 3_000),
            Transaction(memo: "Transfer to #41", amountCents: -50_000),
        ],
        43: [Transaction(memo: "Train to Lyon", amountCents: -8_950)],
    ]

    /// Makes the client.
    public init() {}

    /// The customer's accounts.
    public func fetchAccounts() -> [Account] { accounts }

    /// The latest movements on one account, newest first.
    ///
    /// - Parameter id: The account number.
    /// - Returns: The movements; empty for an unknown account.
    public func fetchTransactions(account id: Int) -> [Transaction] { transactions[id] ?? [] }

    /// The customer's profile.
    public func fetchProfile() -> Profile {
        Profile(name: "Ada Lovelace", email: "ada@bank.example", plan: "premium")
    }
}

/// The accounts feature's service, built on ``BankAPI``.
///
/// Registered with constructor injection, so that an override of `\.api` reaches it:
///
/// ```swift
/// var accountsService: AccountsService { AccountsService(api: resolve(\.api)) }
/// ```
public final class AccountsService: Sendable {
    private let api: any BankAPI

    /// Makes the service.
    ///
    /// - Parameter api: The API it calls.
    public init(api: any BankAPI) {
        self.api = api
    }

    /// The customer's accounts.
    public func accounts() -> [Account] { api.fetchAccounts() }

    /// One account, if the customer has it.
    ///
    /// - Parameter id: The account number.
    /// - Returns: The account, or `nil`.
    public func account(id: Int) -> Account? { api.fetchAccounts().first { $0.id == id } }

    /// The latest movements on one account, newest first.
    ///
    /// - Parameter id: The account number.
    /// - Returns: The movements.
    public func transactions(account id: Int) -> [Transaction] {
        api.fetchTransactions(account: id)
    }
}

/// The profile feature's service, built on ``BankAPI``.
public final class ProfileService: Sendable {
    private let api: any BankAPI

    /// Makes the service.
    ///
    /// - Parameter api: The API it calls.
    public init(api: any BankAPI) {
        self.api = api
    }

    /// The customer's profile.
    public func profile() -> Profile { api.fetchProfile() }
}

/// The app's configuration: built once per process.
public final class AppConfiguration: Sendable {
    /// The app's name and version, as the title bar shows it.
    public let title = "Pocket Bank 1.0"

    /// Makes the configuration.
    public init() {}
}
