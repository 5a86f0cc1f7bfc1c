import Foundation
import InjectableKit
import Testing

extension Injections {
    /// Two helpers nested: the inner ones run while the outer one builds.
    var nestedHelpersNode: Node {
        cached(Node(id: 1, child: shared(Node(id: 2, child: cached(Node(id: 3))))))
    }
    /// Two helpers one after the other: the rule this file pins.
    var helpersInSequenceNode: Node {
        _ = cached(Node(id: 1))
        return cached(Node(id: 2))
    }
}

/// A getter calls one scope helper. The keys here are used by these tests alone, so they run in
/// parallel with every other suite; the stopping case runs in a child process (an exit test).
@Suite struct HelperRuleTests {
    @Test func helpersNestedInAHelpersFactoryAreAllowedAndCacheTheOuterInstance() {
        let first = Injections.container.resolve(\.nestedHelpersNode)
        let second = Injections.container.resolve(\.nestedHelpersNode)
        #expect(first === second)
        #expect(first.child?.child?.id == 3)
    }

    @Test func aGetterThatCallsTwoHelpersInSequenceStopsWithAMessageNamingIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.helpersInSequenceNode)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("helpersInSequenceNode"))
        #expect(message.contains("second scope helper"))
    }
}
