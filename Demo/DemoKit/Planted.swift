import InjectableKit

/// A ledger that needs its audit: one half of the cycle planted for the tour.
public final class Ledger: Sendable {
    let audit: Audit
    init(audit: Audit) { self.audit = audit }
}

/// An audit that needs its ledger: the other half.
public final class Audit: Sendable {
    let ledger: Ledger
    init(ledger: Ledger) { self.ledger = ledger }
}

extension Injections {
    /// Needs `\.plantedAudit`, which needs this key back: a cycle, planted so that the tour can
    /// show how it is reported. An app never resolves it.
    public var plantedLedger: Ledger { Ledger(audit: resolve(\.plantedAudit)) }

    /// The other half of the planted cycle.
    public var plantedAudit: Audit { Audit(ledger: resolve(\.plantedLedger)) }
}

/// An API that knows one customer's name: each parallel "test" of the tour overrides `\.api`
/// with its own.
struct ScriptedBankAPI: BankAPI {
    let customer: String

    func fetchAccounts() -> [Account] { [] }
    func fetchTransactions(account id: Int) -> [Transaction] { [] }
    func fetchProfile() -> Profile {
        Profile(name: customer, email: "test@example.com", plan: "test")
    }
}

extension Tour {
    /// What the demo does when the tour runs it as a child process, to show a failure that
    /// stops the process without ending the tour.
    public enum ChildStep: String, CaseIterable, Sendable {
        /// Resolves the planted cycle.
        case cycle = "--planted-cycle"
        /// Seals the container, then tries to swap `\.api`.
        case seal = "--seal-then-swap"

        /// Runs the step, which stops the process.
        public func run() -> Never {
            switch self {
            case .cycle:
                _ = Injections.container.resolve(\.plantedLedger)
            case .seal:
                // As an app would: resolve at launch, then seal.
                _ = Injections.container.resolve(\.api)
                Injections.container.seal()
                Injections.container.register(\.api) { MockBankAPI() }
            }
            fatalError("the child step \(rawValue) was expected to stop the process")
        }
    }
}
