import CInjectableAtomics

/// The reporter `InjectableTesting` installs, if any: InjectableKit links no test framework.
enum TestHook {
    /// The installed reporter: the address of a cell that holds it, kept for good, or 0.
    private static var installed: AtomicWord { AtomicWord(static: IK_TEST_REPORTER) }

    static var reporter: (any _InjectableTestReporter.Type)? {
        guard ContextFacts.isTesting,
            let cell = UnsafeRawPointer(bitPattern: installed.loadAcquiring())
        else { return nil }
        return Unmanaged<Cell>.fromOpaque(cell).takeUnretainedValue()
            .value(as: (any _InjectableTestReporter.Type).self)
    }

    /// Installs `reporter`, unless one is installed already.
    static func install(_ reporter: any _InjectableTestReporter.Type) {
        // Retained for good once installed: readers do not retain what they load.
        let cell = Unmanaged<Cell>.passRetained(StrongCell(reporter))
        let word = UInt(bitPattern: cell.toOpaque())
        if !installed.compareExchangeReleasing(expected: 0, desired: word) {
            cell.release()  // one was installed first; no reader has seen this cell
        }
    }

    /// Reports a change of the global registry. `wasPushed`: whether a `push()` awaited its
    /// `pop()` before the change (`nil`: read it now, the change being no `pop()`).
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
