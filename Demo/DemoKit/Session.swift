import InjectableKit

/// The signed-in user, as the `\.currentUser` key provides it after login.
public protocol UserProviding: AnyObject, Sendable {
    /// The user's full name.
    var name: String { get }
}

/// A user who has signed in.
public final class SignedInUser: UserProviding {
    /// The user's full name.
    public let name: String

    /// Makes the user.
    ///
    /// - Parameter name: The user's full name.
    public init(name: String) {
        self.name = name
    }
}

/// What one login session remembers: who it belongs to and the accounts viewed in it.
///
/// Lives in the custom `Injections.Scope.session` scope, which ``Login`` resets at login and at
/// logout.
public final class UserSession: Sendable {
    /// The user the session belongs to; `nil` for a guest.
    public let user: (any UserProviding)?
    private let viewed = Locked<[Int]>([])

    /// Starts a session.
    ///
    /// - Parameter user: The user the session belongs to; `nil` for a guest.
    public init(user: (any UserProviding)?) {
        self.user = user
    }

    /// The accounts viewed in this session, in order.
    public var viewedAccounts: [Int] { viewed.withLock { $0 } }

    /// Records that an account was viewed.
    ///
    /// - Parameter id: The account number.
    public func recordView(of id: Int) {
        viewed.withLock { $0.append(id) }
    }
}

/// Logs the user in and out: registers the optional `\.currentUser` key, and starts and ends
/// the session scope.
///
/// ```swift
/// Login.logIn(as: SignedInUser(name: "Ada Lovelace"))
/// Injections.container.resolve(\.currentUser)?.name  // "Ada Lovelace"
/// Login.logOut()
/// Injections.container.resolve(\.currentUser)        // nil
/// ```
public enum Login {
    /// Makes `user` the current user and starts a new session.
    ///
    /// - Parameter user: The user who signed in.
    public static func logIn(as user: any UserProviding) {
        Injections.container.register(\.currentUser) { user }
        Injections.Scope.session.reset()
    }

    /// Forgets the current user and ends the session: the next `\.userSession` is a new one.
    public static func logOut() {
        Injections.container.reset(\.currentUser)
        Injections.Scope.session.reset()
    }
}
