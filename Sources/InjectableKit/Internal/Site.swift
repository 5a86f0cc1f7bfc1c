/// Where a scope helper was called: the identity of one registration.
///
/// Compares the call site's `#fileID` and `#function` string literals by address (a literal is
/// one object for its module) plus line and column, so hashing it costs a few integer mixes.
struct Site: Hashable, Sendable {
    let file: StaticString
    let function: StaticString
    let line: UInt
    let column: UInt

    init(_ file: StaticString, _ function: StaticString, _ line: UInt, _ column: UInt) {
        self.file = file
        self.function = function
        self.line = line
        self.column = column
    }

    static func == (lhs: Site, rhs: Site) -> Bool {
        lhs.line == rhs.line && lhs.column == rhs.column
            && address(lhs.function) == address(rhs.function)
            && address(lhs.file) == address(rhs.file)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(address(function))
        hasher.combine(address(file))
    }

    /// Whether the helper sits in a subscript, whose instances differ per argument value.
    var isSubscript: Bool {
        guard function.hasPointerRepresentation, function.utf8CodeUnitCount >= 10 else {
            return false
        }
        let prefix = UnsafeBufferPointer(start: function.utf8Start, count: 10)
        return prefix.elementsEqual("subscript(".utf8)
    }

    /// The registration's name as written, for diagnostics: `myService`, `subscript(account:)`.
    var name: String { "\(function)" }
}

private func address(_ string: StaticString) -> UInt {
    string.hasPointerRepresentation
        ? UInt(bitPattern: string.utf8Start) : UInt(string.unicodeScalar.value)
}

/// The key of one cached instance: the registration's site, the instance's type, and, for a
/// registration that takes arguments, the keypath that carries them (`\.[account: 42]`).
struct EntryKey: Hashable, @unchecked Sendable {
    // @unchecked: `argument` is an immutable keypath object; only hashed and compared.
    let site: Site
    let type: ObjectIdentifier
    let argument: AnyKeyPath?
}
