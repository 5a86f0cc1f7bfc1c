import InjectableKit

/// A stand-in for one account action, as a test would register it.
public struct ScriptedAction: AccountAction {
    /// The title it shows.
    public let title: String
    /// Always "a test".
    public let module = "a test"

    /// Makes the stand-in.
    ///
    /// - Parameter title: The title it shows.
    public init(_ title: String) { self.title = title }
}

// The tour's step on collection keys: elements from two feature modules, and a test's layer
// that replaces one of them.
extension Tour {
    static func collectActions(_ guide: inout Guide) {
        guide.section(
            "A collection that feature modules contribute to",
            "var accountActions: Contributions<any AccountAction> { cached(contributions(to: "
                + "\\.accountActions)) }, filled by the AutoRegistering hook.")
        for action in Injections.container.resolve(\.accountActions) {
            guide.say("\(action.title) (from \(action.module))")
        }
        guide.say("A test replaces one element in its layer: register(\\.sendMoneyAction) { ... }")
        let replaced = Injections.withOverrides {
            $0.register(\.sendMoneyAction) { ScriptedAction("Send money (test double)") }
        } operation: {
            Injections.container.resolve(\.accountActions).map(\.title)
        }
        guide.say("In the layer: \(replaced.joined(separator: ", "))")
        guide.check(
            "Outside the layer: the modules' own elements",
            Injections.container.resolve(\.accountActions).first?.title == "Send money")
    }
}
