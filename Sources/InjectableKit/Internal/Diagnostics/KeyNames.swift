/// The names of keys, as their registrations are written (`notesRepository`), learned from the
/// resolutions that ran them, so that a message about a key can name it rather than print its
/// keypath (which, outside Apple platforms, shows an address).
///
/// A resolution learns its key's name from a scope helper or a nested `resolve` in the getter
/// (see `Frame.name`); a plain getter that calls neither teaches nothing. Keys with arguments
/// are not kept: each of their keypaths is a new object, and every one would stay.
enum KeyNames {
    private struct Known {
        let keyPath: AnyKeyPath
        let name: StaticString
    }

    /// By keypath object: a keypath literal without arguments is one object per image.
    private final class Table: @unchecked Sendable {
        // @unchecked: `known` is guarded by `lock`.
        let lock = Lock()
        // NB: @exclusivity(unchecked): `lock` keeps accesses apart (see `ScopeStorage`).
        @exclusivity(unchecked) var known: [ObjectIdentifier: Known] = [:]
        /// What each keypath's own description names (see `printedName`), `nil` where it names
        /// nothing: kept with the keypath, so that its object, and so its identifier, lives on.
        @exclusivity(unchecked) var printed: [ObjectIdentifier: (AnyKeyPath, String?)] = [:]

        /// NB: the project's `Lock`, not `Mutex`, whose hand-over on Linux ThreadSanitizer
        /// cannot see (see `Lock`).
        func withLock<Result>(_ body: (inout [ObjectIdentifier: Known]) -> Result) -> Result {
            lock.withLock { body(&known) }
        }
    }

    private static let known = Table()
    private static let limit = 4096

    /// Records that `keyPath`'s registration is called `name`.
    static func learn(_ keyPath: AnyKeyPath, _ name: StaticString) {
        guard !Site.isSubscriptName(name) else { return }
        known.withLock { known in
            let object = ObjectIdentifier(keyPath)
            guard known[object] == nil, known.count < limit else { return }
            known[object] = Known(keyPath: keyPath, name: name)
        }
    }

    /// `keyPath` as `\.name`, if a resolution has learned its name.
    ///
    /// - Parameters:
    ///   - keyPath: The key.
    ///   - sameObject: Whether to look only for the keypath object itself (cheap, for the
    ///     trace), not also for an equal keypath made elsewhere (which compares every key
    ///     known, for messages).
    /// - Returns: `\.name`, or `nil` while no resolution has learned the name and the
    ///   keypath's description does not name it (as outside Apple platforms).
    static func name(of keyPath: AnyKeyPath, sameObject: Bool = false) -> String? {
        let object = ObjectIdentifier(keyPath)
        let (learned, printed) = known.withLock { known -> (String?, String??) in
            if let found = known[object] { return ("\\.\(found.name)", nil) }
            if !sameObject, let found = known.values.first(where: { $0.keyPath == keyPath }) {
                return ("\\.\(found.name)", nil)
            }
            return (nil, Self.known.printed[object].map(\.1))
        }
        if let learned { return learned }
        if let printed { return printed }
        // Formatted outside the lock, once per keypath object (while the table has room).
        let name = printedName(String(describing: keyPath))
        known.withLock { known in
            if known.count + Self.known.printed.count < limit {
                Self.known.printed[object] = (keyPath, name)
            }
        }
        return name
    }

    /// `\.name` from a keypath's own description, where the runtime can name the property it
    /// reads: on Apple platforms, which print `\Injections.api`. Elsewhere the description
    /// shows the getter's address (`\Injections.<computed 0x… (Value)>`), and this is `nil`.
    static func printedName(_ description: String) -> String? {
        // `\Injections.api`, or `\Module.Injections.api` where the type is printed qualified.
        guard description.first == "\\" else { return nil }
        let parts = description.dropFirst().split(
            separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        let name: Substring
        if parts.count >= 2, parts[0] == "Injections" {
            name = description.dropFirst("\\Injections.".count)
        } else if parts.count == 3, parts[1] == "Injections" {
            name = parts[2]
        } else {
            return nil
        }
        guard !name.isEmpty, !name.contains("<"), !name.contains(" ") else { return nil }
        return "\\.\(name)"
    }

    /// `keyPath` named for a message: `\.name` if a resolution has learned its name, else
    /// `<key of type Value>`, to be followed by where the call that names it was made.
    static func describe<Value>(_ keyPath: KeyPath<Injections, Value>) -> String {
        name(of: keyPath) ?? "<key of type \(typeName(Value.self, qualified: false))>"
    }
}
