import Testing

@testable import InjectableKit

extension Injections {
    /// Never resolved: its name comes from the keypath alone.
    fileprivate var neverResolvedGreeting: String { "hello" }
    /// Named by what a resolution learned (here, a name of the test's choosing).
    fileprivate var taughtGreeting: String { "hello" }
}

/// Messages name a key as its registration is written before any resolution has taught the
/// name: from the keypath's description where the runtime prints the property (Apple
/// platforms), from its getter's symbol where it prints an address (Linux).
@Suite struct KeyNameTests {
    @Test func aKeypathPrintedWithItsPropertyNamesTheKey() {
        #expect(KeyNames.printedName(#"\Injections.userProvider"#) == #"\.userProvider"#)
        #expect(KeyNames.printedName(#"\App.Injections.feedSource"#) == #"\.feedSource"#)
    }

    @Test func aNameAResolutionLearnedIsTheOneMessagesUse() {
        let keyPath: AnyKeyPath = \Injections.taughtGreeting
        KeyNames.learn(keyPath, "greetingAsTaught")
        KeyNames.learn(keyPath, "aLaterName")
        #expect(KeyNames.name(of: keyPath) == #"\.greetingAsTaught"#)
    }

    @Test func aKeyNeverResolvedIsNamedAsWritten() {
        #expect(KeyNames.name(of: \Injections.neverResolvedGreeting) == #"\.neverResolvedGreeting"#)
        #expect(KeyNames.describe(\Injections.neverResolvedGreeting) == #"\.neverResolvedGreeting"#)
    }

    @Test func aKeypathPrintedWithAnAddressIsNamedByItsGettersSymbol() {
        let printed = #"\Injections.<computed 0x000055bc203f9f00 (Optional<User>)>"#
        let getter =
            "key path getter for (extension in App):InjectableKit.Injections.user : "
            + "InjectableKit.Injections"
        #expect(
            KeyNames.printedName(printed) { $0 == 0x55bc_203f_9f00 ? getter : nil } == #"\.user"#)
        #expect(KeyNames.printedName(printed) { _ in nil } == nil)
    }

    @Test func aPrivateKeyIsNamedWithoutItsFilesDiscriminator() {
        #expect(
            KeyNames.propertyName(
                inSymbol: "key path getter for (extension in AppTests):InjectableKit.Injections."
                    + "(mockClock in _C798F33907F7E28242BD6862DEDBE444) : App.Clock : "
                    + "InjectableKit.Injections") == #"\.mockClock"#)
    }

    @Test func aSubscriptOrAKeypathThroughAKeyIsNotNamedAfterItsFirstProperty() {
        #expect(
            KeyNames.propertyName(
                inSymbol: "key path getter for App.Injections.subscript(Swift.Int) -> App.User : "
                    + "App.Injections") == nil)
        let nested = #"\Injections.<computed 0x1 (Date)>.<computed 0x2 (Double)>"#
        #expect(
            KeyNames.printedName(nested) { _ in "key path getter for App.Injections.date : x" }
                == nil)
        #expect(KeyNames.printedName("KeyPath<Injections, Optional<User>>") == nil)
        #expect(KeyNames.printedName(#"\Other.name"#) == nil)
    }
}
