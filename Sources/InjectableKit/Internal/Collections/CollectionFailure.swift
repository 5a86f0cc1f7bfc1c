/// The mistakes made with collection keys: each stops through `Failure.stop` (so `verify`
/// reports it), but a misplaced contribution is ignored and fails its test (`Failure.mistake`).
enum CollectionFailure {
    static let hook =
        "AutoRegistering's registerAllServices() (extension Injections: AutoRegistering)"

    static func describe(_ contribution: Contribution) -> String {
        let name = KeyNames.name(of: contribution.element) ?? "the element"
        return "\(name) contributed at \(contribution.site)"
    }

    static func duplicate(_ first: Contribution, _ second: Contribution, in collection: String)
        -> Never
    {
        if first.element == second.element {
            Failure.stop(
                "InjectableKit: the same element is contributed to \(collection) twice, at "
                    + "\(first.site) and at \(second.site): a collection holds each element key "
                    + "once. Remove one of the two contributions.")
        }
        let key = first.dictionaryKey.map { "\($0.base)" } ?? "?"
        Failure.stop(
            "InjectableKit: two elements are contributed to \(collection) for the key \(key): "
                + "\(describe(first)), and \(describe(second)). A dictionary collection holds "
                + "one element per key: give each its own key, or, to replace an element, "
                + "override its key (register(\\.element) { ... }).")
    }

    static func tooFew(_ count: Int, _ minimum: Int, in collection: String) -> Never {
        Failure.stop(
            "InjectableKit: \(collection) needs at least \(minimum) element"
                + "\(minimum == 1 ? "" : "s"), but \(count == 0 ? "none was" : "only \(count) were") "
                + "contributed. Contribute its elements from \(hook), with "
                + "container.contribute(\\.element, to: \(collection)), and check that the hook "
                + "calls every module's contribution function.")
    }

    static func afterResolution(
        _ call: String, resolvedBy collection: String, file: StaticString, line: UInt
    ) {
        Failure.mistake(
            "InjectableKit: \(call) came after \(collection) was first resolved, which missed it. "
                + "Make every contribution in \(hook), before anything resolves the collection "
                + "(the hook itself too).", file: file, line: line)
    }

    static func outsideHook(_ call: String, file: StaticString, line: UInt) {
        Failure.mistake(
            "InjectableKit: \(call) was made outside \(hook). Contributions are made there, so "
                + "that the app and its tests see every collection complete before its first "
                + "resolution: call each module's contribution function from the hook. A test "
                + "adds an element in its own layer: @Test(.injections { $0.contribute(...) }).",
            file: file, line: line)
    }

    static func notContributed(_ call: String) -> Never {
        Failure.stop(
            "InjectableKit: \(call) found nothing to remove: no such element is contributed "
                + "there.")
    }

    static func otherKey(_ collection: String, in key: String) -> Never {
        Failure.stop(
            "InjectableKit: \(key)'s registration assembles the contributions to \(collection): "
                + "a collection key's getter names its own key (contributions(to: \(key))). To "
                + "read another collection, resolve it: resolve(\\.otherCollection).")
    }
}
