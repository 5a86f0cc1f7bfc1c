// Thread-safe values for the test targets, at the package's floor.
import Foundation

/// A value guarded by an `NSLock`. (Not `Mutex`, which needs iOS 18 and macOS 15, above the
/// package's floor, and whose contended path on Linux is invisible to ThreadSanitizer, which
/// then reports false races.)
public final class Guarded<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A guarded `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// An atomic value for the tests, with the part of `Atomic`'s interface they use. (Not
/// `Atomic`: Synchronization needs iOS 18 and macOS 15, and the tests build at the package's
/// floor; a lock gives every access the strongest ordering, so the orderings are only read.)
public final class TestAtomic<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `guarded`'s lock.
    private let guarded: Guarded<Value>

    /// The orderings of `Atomic`'s interface.
    public enum Ordering { case relaxed, acquiring, releasing, sequentiallyConsistent }

    /// An atomic holding `value`.
    public init(_ value: Value) { guarded = Guarded(value) }

    /// The value.
    public func load(ordering: Ordering) -> Value { guarded.withLock { $0 } }

    /// Replaces the value.
    public func store(_ value: Value, ordering: Ordering) { guarded.withLock { $0 = value } }
}

extension TestAtomic where Value: FixedWidthInteger {
    /// Adds `operand`, wrapping on overflow.
    @discardableResult
    public func add(_ operand: Value, ordering: Ordering) -> (oldValue: Value, newValue: Value) {
        guarded.withLock { value in
            let old = value
            value &+= operand
            return (old, value)
        }
    }

    /// Adds `operand`, wrapping on overflow.
    public func wrappingAdd(_ operand: Value, ordering: Ordering) -> (
        oldValue: Value, newValue: Value
    ) {
        add(operand, ordering: ordering)
    }
}
