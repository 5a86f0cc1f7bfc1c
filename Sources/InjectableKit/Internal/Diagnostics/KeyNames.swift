import CInjectableAtomics

/// Keys' names for messages (README, "Failures, key names and verification").
enum KeyNames {
    /// By keypath object: a keypath literal without arguments is one object per image.
    private final class Table: @unchecked Sendable {
        // @unchecked: `known`, `printed` and `learned` are guarded by `lock`.
        /// NB: `Lock`, not `Mutex`, whose hand-over Linux ThreadSanitizer cannot see (see `Lock`).
        let lock = Lock(rank: .keyNames)
        // NB: @exclusivity(unchecked): `lock` keeps accesses apart (see `ScopeStorage`).
        @exclusivity(unchecked) var known:
            [ObjectIdentifier: (keyPath: AnyKeyPath, name: StaticString)] = [:]
        /// `printedName`s, kept with the keypath so that its identifier is not reused.
        @exclusivity(unchecked) var printed: [ObjectIdentifier: (AnyKeyPath, String?)] = [:]
        /// Not yet filed in `known` (README, "Memory bounds": noted now, filed when asked).
        @exclusivity(unchecked) var learned = Backlog<(keyPath: AnyKeyPath, name: StaticString)>()
    }

    private static let table = Table()
    private static let limit = 4096

    static func learn(_ keyPath: AnyKeyPath, _ name: StaticString) {
        guard !Site.isSubscriptName(name) else { return }
        var released: [(keyPath: AnyKeyPath, name: StaticString)] = []
        defer { withExtendedLifetime(released) {} }  // keypaths released outside the lock
        table.lock.withLock {
            if table.learned.note((keyPath, name)) { released = takeInLearned() }
        }
    }

    /// The first name learned for a keypath object stays. Call with the lock locked; returns
    /// what was learned, for the caller to release once it holds no lock.
    private static func takeInLearned() -> [(keyPath: AnyKeyPath, name: StaticString)] {
        let taken = table.learned.take()
        for (keyPath, name) in taken where table.known.count < limit {
            let object = ObjectIdentifier(keyPath)
            if table.known[object] == nil { table.known[object] = (keyPath, name) }
        }
        return taken
    }

    /// `\.name`, learned or printed; `sameObject` looks only for this keypath object (cheap, for
    /// the trace), not for an equal one made elsewhere (which compares every key known).
    static func name(of keyPath: AnyKeyPath, sameObject: Bool = false) -> String? {
        let object = ObjectIdentifier(keyPath)
        // Learned, else printed before (`nil` inside: the description names nothing).
        var released: [(keyPath: AnyKeyPath, name: StaticString)] = []
        defer { withExtendedLifetime(released) {} }  // keypaths released outside the lock
        let found = table.lock.withLock { () -> String?? in
            released = takeInLearned()
            if let learned = table.known[object]
                ?? (sameObject ? nil : table.known.values.first { $0.keyPath == keyPath })
            {
                return "\\.\(learned.name)"
            }
            return table.printed[object].map(\.1)
        }
        if let found { return found }
        // Formatted outside the lock, once per keypath object (while the table has room).
        let name = printedName(String(describing: keyPath))
        table.lock.withLock {
            if table.known.count + table.printed.count < limit {
                table.printed[object] = (keyPath, name)
            }
        }
        return name
    }

    /// Apple platforms print the property (`\Injections.api`); elsewhere the getter's address
    /// (`\Injections.<computed 0x… (Value)>`), named by the symbol table if the binary keeps it.
    static func printedName(
        _ description: String, symbolAt: (UInt) -> String? = functionName(at:)
    ) -> String? {
        guard description.first == "\\" else { return nil }
        // `\Injections.api`, or `\Module.Injections.api` where the type is printed qualified.
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
        // One component: `\.date.now` prints a second `.<computed …>`.
        if name.hasPrefix("<computed 0x"),
            !name.dropFirst().indices.contains(where: { name[$0...].hasPrefix("<computed ") }),
            let address = UInt(name.dropFirst(12).prefix { $0.isHexDigit }, radix: 16),
            let function = symbolAt(address)
        {
            return propertyName(inSymbol: function)
        }
        guard !name.isEmpty, !name.contains("<"), !name.contains(" ") else { return nil }
        return "\\.\(name)"
    }

    /// `\.api` from a demangled getter's name: `key path getter for App.Injections.api :
    /// App.Injections`, `App.Injections.api.getter : …`, or `….Injections.(api in _C798…) : …`
    /// for a private key; `nil` for a subscript.
    static func propertyName(inSymbol symbol: String) -> String? {
        guard let type = symbol.indices.first(where: { symbol[$0...].hasPrefix("Injections.") })
        else { return nil }
        var member = symbol[type...].dropFirst("Injections.".count)
        // A `private` or `fileprivate` key: `(api in _C798F339…)`.
        let isPrivate = member.first == "("
        if isPrivate { member = member.dropFirst() }
        let name = member.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let rest = member.dropFirst(name.count)
        guard !name.isEmpty, name != "subscript",
            isPrivate ? rest.hasPrefix(" in ") : rest.first == " " || rest.first == "."
        else { return nil }
        return "\\.\(name)"
    }

    /// The demangled name of the function at `address`, from its binary's symbol table.
    private static func functionName(at address: UInt) -> String? {
        guard let function = UnsafeRawPointer(bitPattern: address) else { return nil }
        var buffer = [CChar](repeating: 0, count: 512)
        guard ik_function_name(function, &buffer, buffer.count) == 1 else { return nil }
        return String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `\.name`, else `<key of type Value>`, to be followed by where the naming call was made.
    static func describe(_ keyPath: AnyKeyPath) -> String {
        name(of: keyPath)
            ?? "<key of type \(typeName(type(of: keyPath).valueType, qualified: false))>"
    }
}
