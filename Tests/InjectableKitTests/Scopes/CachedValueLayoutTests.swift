import InjectableKit
import Testing

/// Five words: larger than an existential's inline buffer.
struct FiveWords: Equatable, Sendable {
    var a = 1, b = 2, c = 3, d = 4, e = 5
}

extension Injections {
    var layoutByte: UInt8 { cached(7) }
    var layoutAligned: SIMD4<Float> { cached(SIMD4(1, 2, 3, 4)) }
    var layoutLarge: FiveWords { cached(FiveWords()) }
    var layoutExistential: any Sendable { cached(FiveWords(a: 9)) }
    var layoutOptional: String? { cached("kept") }
}

/// A cached value is kept in the cell that holds it, wherever its type's size and alignment put
/// it: every later resolution reads back the value stored.
///
/// Isolation: these keys are this suite's own and have no overrides; a reset of the cached
/// scope by another test only makes a resolution build the same value again.
@Suite struct CachedValueLayoutTests {
    @Test func valuesOfEveryLayoutReadBackAsCached() {
        let container = Injections.container
        for _ in 0..<3 {
            #expect(container.resolve(\.layoutByte) == 7)
            #expect(container.resolve(\.layoutAligned) == SIMD4(1, 2, 3, 4))
            #expect(container.resolve(\.layoutLarge) == FiveWords())
            #expect(container.resolve(\.layoutExistential) as? FiveWords == FiveWords(a: 9))
            #expect(container.resolve(\.layoutOptional) == "kept")
        }
    }
}
