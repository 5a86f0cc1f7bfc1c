import Foundation
import Testing

@testable import InjectionKeyScanner

/// The InjectionKeys plugin's listing of keys from source text: what `verifyAll()` checks.
@Suite struct KeyScannerTests {
    private func names(_ source: String) -> [String] {
        KeyScanner.keys(in: source).map(\.name)
    }

    @Test func everyComputedPropertyOfAnInjectionsExtensionIsAKey() {
        let source = """
            import InjectableKit
            extension Injections {
                var api: any API { shared(LiveAPI()) }
                public var clock: Clock {
                    Clock()
                }
                func helper() -> Int { var local = 1; return local }
                struct Nested { var notAKey: Int { 1 } }
            }
            extension Other { var elsewhere: Int { 1 } }
            extension InjectableKit.Injections { var qualified: Int { 1 } }
            """
        #expect(names(source) == ["api", "clock", "qualified"])
    }

    @Test func keysThatOtherFilesCannotNameAreLeftOut() {
        let source = """
            extension Injections {
                private var hidden: Int { 1 }
                fileprivate var alsoHidden: Int { 1 }
                static var notAKey: Int { 1 }
                var shown: Int { 1 }
            }
            private extension Injections { var inPrivateExtension: Int { 1 } }
            """
        #expect(names(source) == ["shown"])
    }

    @Test func bracesInCommentsAndStringsAreNotCode() {
        let source = #"""
            extension Injections {
                // var commented: Int { 1 }
                /* var blocked: Int { /* nested */ 1 } */
                var greeting: String { "}{ \(["}": 1].count) \("nested \("deep }")") {" }
                var raw: String { #"}" \#(1) "{"# }
                var multi: String {
                    """
                    } var fake: Int {
                    """
                }
                var last: Int { 1 }
            }
            """#
        #expect(names(source) == ["greeting", "raw", "multi", "last"])
    }

    @Test func anUnbalancedBraceOutsideTheExtensionsHidesNoKey() {
        // Valid Swift whose braces the scanner does not blank: a regex literal and a raw
        // identifier. Outside `extension Injections`, they must not change what is found.
        let source = #"""
            let pattern = /\{/
            func `opens {`() {}
            extension Injections {
                var api: Int { 1 }
            }
            """#
        #expect(names(source) == ["api"])
    }

    @Test func mainActorKeysAreMarkedToRunOnTheMainActor() {
        let source = """
            extension Injections {
                @MainActor var viewModel: ViewModel { ViewModel() }
                @MainActor
                var onTwoLines: ViewModel { ViewModel() }
                @DatabaseActor var store: Store { Store() }
            }
            @MainActor
            extension Injections { var inMainActorExtension: Int { 1 } }
            """
        #expect(
            KeyScanner.keys(in: source).map(\.kind) == [
                .mainActor, .mainActor, .skipped("isolated to DatabaseActor"), .mainActor,
            ])
    }

    @Test func argumentKeysAndDeprecatedKeysAreListedAsNotChecked() {
        let source = """
            extension Injections {
                subscript(account id: Int) -> Account { Account(id: id) }
                @available(*, deprecated, message: "use api")
                var oldAPI: any API { resolve(\\.api) }
            }
            """
        #expect(
            KeyScanner.keys(in: source) == [
                DeclaredKey(
                    name: "subscript(account id: Int) -> Account",
                    kind: .skipped("takes arguments"),
                    conditions: []),
                DeclaredKey(name: "oldAPI", kind: .skipped("deprecated"), conditions: []),
            ])
    }

    @Test func aKeyUnderConditionalCompilationKeepsItsConditions() {
        let source = """
            extension Injections {
                #if DEBUG
                var debugMenu: Menu { Menu() }
                #elseif STAGING
                var stagingMenu: Menu { Menu() }
                #else
                var releaseMenu: Menu { Menu() }
                #endif
                var always: Int { 1 }
            }
            """
        #expect(
            KeyScanner.keys(in: source).map(\.conditions) == [
                ["DEBUG"], ["!(DEBUG) && STAGING"], ["!(DEBUG) && !(STAGING) && true"], [],
            ])
    }

    @Test func aModuleWhoseKeysAreAllPublicIsImportedWithoutTesting() {
        let keys = KeyScanner.keys(
            in: """
                extension Injections {
                    public var api: API { API() }
                    package var store: Store { Store() }
                }
                public extension Injections { var clock: Clock { Clock() } }
                extension Injections { var internalKey: Int { 1 } }
                """)
        #expect(keys.map(\.isVisible) == [true, true, true, false])
        #expect(
            GeneratedFile.text(for: [("App", Array(keys.prefix(3)))]).contains("\nimport App\n"))
        #expect(GeneratedFile.text(for: [("App", keys)]).contains("\n@testable import App\n"))
    }

    @Test func theGeneratedCheckResolvesEachKeyAndNamesWhatItLeavesOut() {
        let text = GeneratedFile.text(for: [
            (
                "App",
                [
                    DeclaredKey(name: "api", kind: .property, conditions: []),
                    DeclaredKey(name: "screen", kind: .mainActor, conditions: ["DEBUG"]),
                    DeclaredKey(
                        name: "subscript(id: Int) -> X", kind: .skipped("takes arguments"),
                        conditions: []),
                ]
            )
        ])
        #expect(text.contains("@testable import App\n"))
        #expect(
            text.contains(
                "            #if DEBUG\n            keys.resolveIsolated(\\.screen)\n            #endif\n            keys.resolve(\\.api)\n"
            ))
        #expect(text.contains("`subscript(id: Int) -> X`: takes arguments"))
    }
}
