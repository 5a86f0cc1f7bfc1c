import InjectableKit

/// A fixed, obviously fake API for tests and previews.
public final class MockBankAPI: BankAPI {
    /// Makes the mock.
    public init() {}

    /// Two small mock accounts, numbered like the live ones.
    public func fetchAccounts() -> [Account] {
        [
            Account(id: 41, name: "Mock checking", balanceCents: 10_000),
            Account(id: 42, name: "Mock savings", balanceCents: 5_000),
        ]
    }

    /// One mock movement on every account.
    ///
    /// - Parameter id: The account number.
    /// - Returns: One movement.
    public func fetchTransactions(account id: Int) -> [Transaction] {
        [Transaction(memo: "Mock payment", amountCents: -100)]
    }

    /// The mock customer.
    public func fetchProfile() -> Profile {
        Profile(name: "Mock User", email: "mock@example.com", plan: "free")
    }
}

extension Injections {
    /// Replaces the live API with ``MockBankAPI`` for every key of type `any BankAPI`.
    ///
    /// The services build on `\.api` through the container, so they, and the view models on top
    /// of them, use the mock too. Undo it with `Injections.container.reset()`.
    ///
    /// ```swift
    /// Injections.registerMockServices()
    /// Injections.container.resolve(\.api)  // a MockBankAPI
    /// ```
    public static func registerMockServices() {
        container.register { MockBankAPI() as any BankAPI }
    }
}
