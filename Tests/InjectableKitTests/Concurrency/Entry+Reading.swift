@testable import InjectableKit

extension Entry {
    /// The instance held, read as `Resolver.resolve`'s fast path reads it, for the tests of
    /// the entry alone.
    func value<Value>(as _: Value.Type, view: Bool) -> Value? {
        if isObjectReference(Value.self) {
            return object(view: view).map { unsafeBitCast($0, to: Value.self) }
        }
        guard let storage = beginRead(view: view) else { return nil }
        defer { endRead() }
        return storage.assumingMemoryBound(to: Value.self).pointee
    }
}
