import InjectableKit
import Testing

extension Injections {
    // Keys of every kind of value a lazy wrapper keeps: its own reference for one class
    // reference, a box for anything else. Only these tests resolve them.
    var lazyKeptNumber: Int { 42 }
    var lazyKeptNothing: Service? { nil }
    var lazyKeptExistential: any Sendable { Service("existential") as any Sendable }
    var lazyKeptAnyObject: AnyObject { Service("any object") }
}

/// Reads `wrapper` in code that is never specialised for `Service`, as a generic caller in
/// another module would.
@_semantics("optimize.sil.specialize.generic.never") @inline(never)
private func readUnspecialised<Service>(_ wrapper: LazyInjectable<Service>) -> Service {
    wrapper.wrappedValue
}

/// What `@LazyInjectable` keeps, and that code specialised for the value's type and code that
/// is not read it alike (run in release builds too). The keys are these tests' own, and
/// nothing overrides them, so these run in parallel.
@Suite struct LazyStorageTests {
    @Test func valuesOfEveryKindAreKeptAndReadBack() {
        let number = LazyInjectable(\.lazyKeptNumber)
        let nothing = LazyInjectable(\.lazyKeptNothing)
        let existential = LazyInjectable(\.lazyKeptExistential)
        #expect(number.wrappedValue == 42)
        #expect(number.wrappedValue == 42)
        #expect(nothing.wrappedValue == nil)
        #expect(nothing.wrappedValue == nil)
        let first = existential.wrappedValue as? Service
        let again = existential.wrappedValue as? Service
        #expect(first != nil)
        #expect(again === first)
    }

    @Test func specialisedAndUnspecialisedReadsAgree() {
        let specialisedFirst = LazyInjectable(\.lazyKeptAnyObject)
        let stored = specialisedFirst.wrappedValue
        let readBack = readUnspecialised(specialisedFirst)
        #expect(ObjectIdentifier(readBack) == ObjectIdentifier(stored))

        let unspecialisedFirst = LazyInjectable(\.lazyKeptAnyObject)
        let kept = readUnspecialised(unspecialisedFirst)
        let keptBack = unspecialisedFirst.wrappedValue
        #expect(ObjectIdentifier(keptBack) == ObjectIdentifier(kept))

        let number = LazyInjectable(\.lazyKeptNumber)
        let unspecialisedNumber = readUnspecialised(number)
        #expect(unspecialisedNumber == 42)
        #expect(number.wrappedValue == 42)
    }
}
