/// A bank account as the bank's API returns it.
public struct Account: Sendable, Equatable {
    /// The account number.
    public let id: Int
    /// The name the customer gave the account.
    public let name: String
    /// The balance, in euro cents.
    public let balanceCents: Int

    /// Makes an account.
    ///
    /// - Parameters:
    ///   - id: The account number.
    ///   - name: The name the customer gave the account.
    ///   - balanceCents: The balance, in euro cents.
    public init(id: Int, name: String, balanceCents: Int) {
        self.id = id
        self.name = name
        self.balanceCents = balanceCents
    }
}

/// One movement on an account.
public struct Transaction: Sendable, Equatable {
    /// What the bank statement says.
    public let memo: String
    /// The amount, in euro cents: positive for money in, negative for money out.
    public let amountCents: Int

    /// Makes a transaction.
    ///
    /// - Parameters:
    ///   - memo: What the bank statement says.
    ///   - amountCents: The amount, in euro cents.
    public init(memo: String, amountCents: Int) {
        self.memo = memo
        self.amountCents = amountCents
    }
}

/// The customer's profile.
public struct Profile: Sendable, Equatable {
    /// The customer's full name.
    public let name: String
    /// The customer's e-mail address.
    public let email: String
    /// The customer's plan, for example `premium`.
    public let plan: String

    /// Makes a profile.
    ///
    /// - Parameters:
    ///   - name: The customer's full name.
    ///   - email: The customer's e-mail address.
    ///   - plan: The customer's plan.
    public init(name: String, email: String, plan: String) {
        self.name = name
        self.email = email
        self.plan = plan
    }
}
