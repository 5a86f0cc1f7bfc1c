import InjectableKit

extension Injections.Scope {
    /// One login session: ``Login`` resets it at login and at logout.
    public static let session = Injections.Scope.cached("session")
}

// The screens' view models: Observation needs iOS 17 and macOS 14.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Injections {
    /// The accounts screen's view model, alive while a screen holds it.
    @MainActor public var accountsViewModel: AccountsViewModel { shared(AccountsViewModel()) }

    /// The profile screen's view model, alive while a screen holds it.
    @MainActor public var profileViewModel: ProfileViewModel { shared(ProfileViewModel()) }

    /// One account's detail view model, cached per account number.
    ///
    /// ```swift
    /// let detail = Injections.container.resolve(\.[account: 42])
    /// ```
    ///
    /// - Parameter id: The account number.
    @MainActor public subscript(account id: Int) -> AccountDetailViewModel {
        cached(AccountDetailViewModel(id: id, service: resolve(\.accountsService)))
    }
}

extension Injections {
    /// The bank's API, kept until the cached scope is reset: the mock when the program was
    /// launched with `--mocks`, the live one otherwise.
    public var api: any BankAPI {
        when(.argument("--mocks")) { cached(MockBankAPI() as any BankAPI) }
            ?? cached(LiveBankAPI() as any BankAPI)
    }

    /// The accounts service, new every time; its API comes through the container, so an
    /// override of `\.api` reaches it.
    public var accountsService: AccountsService { AccountsService(api: resolve(\.api)) }

    /// The profile service, new every time, built on `\.api` like `\.accountsService`.
    public var profileService: ProfileService { ProfileService(api: resolve(\.api)) }

    /// The signed-in user: `nil` until ``Login/logIn(as:)`` registers one.
    public var currentUser: (any UserProviding)? { nil }

    /// The current login session, held by the custom session scope.
    public var userSession: UserSession {
        scoped(.session, UserSession(user: resolve(\.currentUser)))
    }

    /// The app's configuration, built once per process.
    public var appConfiguration: AppConfiguration { application(AppConfiguration()) }
}
