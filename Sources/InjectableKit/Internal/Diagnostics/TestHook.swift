/// Where reports meant for a test go: `InjectableTesting`'s `_InjectableTestReporter`, found by
/// its mangled name in a test process (InjectableKit links no test framework), or nothing.
enum TestHook {
    /// `InjectableTesting.TestIssueReporter`, if the test process links it.
    static let reporter: (any _InjectableTestReporter.Type)? = {
        guard ContextFacts.isTesting else { return nil }
        // NB: `_typeByName` reads the runtime's type records, so it finds the type in a test
        // executable that exports no symbols (as `dlsym` would need).
        return _typeByName("17InjectableTesting17TestIssueReporterO")
            as? any _InjectableTestReporter.Type
    }()

    /// Reports a change `attempt` made to `registry`, if it is the global one. `wasPushed`:
    /// whether a `push()` was waiting for its `pop()` before the change (`nil`: read it now, the
    /// change being no `pop()`).
    static func changed(
        _ registry: OverrideRegistry, _ attempt: @autoclosure () -> String, file: StaticString,
        line: UInt, wasPushed: Bool? = nil
    ) {
        guard !registry.isLayer, let reporter, !AutoRegistration.isRunningHook else { return }
        let what = attempt()
        reporter.reportGlobalChange(
            "InjectableKit: \(what) at \(file):\(line) changed the global overrides, which every "
                + "test running at the same time sees, and every later test of the run. Make it "
                + "in the test's own layer: "
                + (what.hasPrefix("register")
                    ? "give the test the `.injections` trait and register there "
                        + "(`@Test(.injections { $0.\(what) })`), or inside "
                        + "`Injections.withOverrides`. "
                    : "in a test with the `.injections` trait, or inside "
                        + "`Injections.withOverrides`, it changes that layer alone. ")
                + "A serialized suite that uses the global container "
                + "on purpose says so with `@Suite(.serialized, .globalInjections)`. In XCTest, "
                + "subclass `InjectableTestCase`, or call `Injections.container.push()` in "
                + "`setUp()` and `pop()` in `tearDown()`.",
            fileID: "\(file)", line: Int(line), whilePushed: wasPushed ?? registry.isPushed)
    }
}
