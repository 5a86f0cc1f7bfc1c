import Testing

@testable import InjectableKit

/// Where the runtime prints a keypath by its property's name (Apple platforms), messages name a
/// key by its registration before any resolution has taught the name; where it prints the
/// getter's address (Linux), they fall back to the key's type.
@Suite struct KeyNameTests {
    @Test func aKeypathPrintedWithItsPropertyNamesTheKey() {
        #expect(KeyNames.printedName(#"\Injections.userProvider"#) == #"\.userProvider"#)
        #expect(KeyNames.printedName(#"\App.Injections.feedSource"#) == #"\.feedSource"#)
    }

    @Test func aKeypathPrintedWithAnAddressNamesNothing() {
        #expect(
            KeyNames.printedName(#"\Injections.<computed 0x000055bc203f9f00 (Optional<User>)>"#)
                == nil)
        #expect(KeyNames.printedName("KeyPath<Injections, Optional<User>>") == nil)
        #expect(KeyNames.printedName(#"\Other.name"#) == nil)
    }
}
