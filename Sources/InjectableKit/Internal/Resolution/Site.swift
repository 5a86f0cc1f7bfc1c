#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a scope helper was called: the identity of one registration. Literals compare by
/// address, then by contents (an `@inlinable` getter in another image has its own copies), and
/// hash by a digest of their contents, which both copies share.
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
            && sameText(lhs.function, rhs.function) && sameText(lhs.file, rhs.file)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
    }

    /// The line, the column and the literals' digests in one word, computed without a hasher.
    var folded: UInt {
        Self.fold(
            Self.fold(Self.fold(line, column), Self.digest(of: function)), Self.digest(of: file))
    }

    /// Two parts of a hash in one word. (Wrapping: the same on 32-bit `UInt`.)
    static func fold(_ folded: UInt, _ part: UInt) -> UInt { (folded &* 31) ^ part }

    /// A word of a literal's contents: its length and its first and last eight bytes, which
    /// tell apart the names of registrations at one line and column of other files (their
    /// lengths alone often do not: `Feature12.swift`, `Feature13.swift`).
    private static func digest(of text: StaticString) -> UInt {
        // A one-scalar literal's bytes too, as `==` compares them.
        guard text.hasPointerRepresentation else {
            return text.withUTF8Buffer { digest(of: UnsafeRawBufferPointer($0)) }
        }
        return digest(
            of: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func digest(of bytes: UnsafeRawBufferPointer) -> UInt {
        let count = bytes.count
        var first: UInt64 = 0
        var last: UInt64 = 0
        if count >= 8, let start = bytes.baseAddress {
            first = start.loadUnaligned(as: UInt64.self)
            last = (start + count - 8).loadUnaligned(as: UInt64.self)
        } else {
            for byte in bytes { first = first << 8 | UInt64(byte) }
        }
        let word = (first &* 0x9E37_79B9_7F4A_7C15) ^ last ^ UInt64(count)
        return UInt(truncatingIfNeeded: word ^ (word >> 32))
    }

    /// Whether the helper sits in a subscript, whose instances differ per argument value.
    var isSubscript: Bool { Self.isSubscriptName(function) }

    static func isSubscriptName(_ function: StaticString) -> Bool {
        guard function.hasPointerRepresentation, function.utf8CodeUnitCount >= 10 else {
            return false
        }
        // NB: memcmp: `elementsEqual` over a `String.UTF8View` cost ~100 instructions a call.
        return memcmp(function.utf8Start, subscriptPrefix.utf8Start, 10) == 0
    }

    private static let subscriptPrefix: StaticString = "subscript("

    /// `func sharedImpl()`: like a getter, one instance, however many keys call it.
    var isInFunctionWithoutParameters: Bool {
        guard function.hasPointerRepresentation, function.utf8CodeUnitCount >= 2 else {
            return false
        }
        let end = function.utf8Start + function.utf8CodeUnitCount
        return end[-2] == 0x28 && end[-1] == 0x29  // "()"
    }

    /// A property's getter is one registration; a function (`func cachedLeaf(_:)`) may serve
    /// any number of keys.
    var isInPropertyGetter: Bool {
        guard function.hasPointerRepresentation else { return false }
        return memchr(function.utf8Start, 0x28, function.utf8CodeUnitCount) == nil  // "("
    }

    /// The registration's name as written, for diagnostics: `myService`, `subscript(account:)`.
    var name: String { "\(function)" }
}

private func sameText(_ lhs: StaticString, _ rhs: StaticString) -> Bool {
    guard lhs.hasPointerRepresentation, rhs.hasPointerRepresentation else {
        return lhs.description == rhs.description
    }
    if lhs.utf8Start == rhs.utf8Start { return true }
    return lhs.utf8CodeUnitCount == rhs.utf8CodeUnitCount
        && memcmp(lhs.utf8Start, rhs.utf8Start, lhs.utf8CodeUnitCount) == 0
}
