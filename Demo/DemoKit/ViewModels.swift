import InjectableKit
import Observation

/// The accounts screen's state: the customer's accounts and their total.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class AccountsViewModel {
    /// The accounts, once ``load()`` has run.
    public private(set) var accounts: [Account] = []
    // NB: @Observable turns stored properties into computed ones, which cannot carry a property
    // wrapper: without @ObservationIgnored this does not compile ("ambiguous reference to
    // member '_service'"). The service never changes, so there is nothing to observe anyway.
    @ObservationIgnored @Injectable(\.accountsService) private var service

    /// Makes the view model; its service is injected now.
    public init() {}

    /// The sum of the balances, in euro cents.
    public var totalCents: Int { accounts.reduce(0) { $0 + $1.balanceCents } }

    /// Fetches the accounts.
    public func load() {
        accounts = service.accounts()
    }
}

/// The profile screen's state.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class ProfileViewModel {
    /// The profile, once ``load()`` has run.
    public private(set) var profile: Profile?
    // Resolved on first use: a profile screen that never loads never builds the service.
    @ObservationIgnored @LazyInjectable(\.profileService) private var service

    /// Makes the view model; its service is resolved on first use.
    public init() {}

    /// Fetches the profile.
    public func load() {
        profile = service.profile()
    }
}

/// One account's detail screen state, registered per account number as `\.[account: id]`.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class AccountDetailViewModel {
    /// The account number.
    public let id: Int
    /// The account, once ``open()`` has run; `nil` if the customer has no such account.
    public private(set) var account: Account?
    /// The latest movements, newest first.
    public private(set) var transactions: [Transaction] = []
    @ObservationIgnored private let service: AccountsService

    /// Makes the view model.
    ///
    /// - Parameters:
    ///   - id: The account number.
    ///   - service: The accounts service it reads from.
    public init(id: Int, service: AccountsService) {
        self.id = id
        self.service = service
    }

    /// Fetches the account and records the view in the current session.
    public func open() {
        account = service.account(id: id)
        transactions = service.transactions(account: id)
        // Resolved on every open, not stored: this view model is cached across sessions.
        Injections.container.resolve(\.userSession).recordView(of: id)
    }
}
