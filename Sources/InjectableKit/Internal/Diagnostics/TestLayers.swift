import CInjectableAtomics

/// Running tests' layers, against which a resolution outside any layer is checked: one of a
/// key a test overrides is reported to that test as its layer closes (``leave(_:)``), since the
/// resolving task left its test. `watching` is 1 exactly while `live` is not empty (both change
/// under `lock`), and keeps a detour counted, so that every resolution reaches the check.
enum TestLayers {
    /// 1 while watching, else 0.
    private static var watching: AtomicWord { AtomicWord(static: IK_TEST_LAYERS_WATCHING) }
    private static let lock = Lock(rank: .leaf)
    // Guarded by `lock`.
    nonisolated(unsafe) private static var live: [ObjectIdentifier: Live] = [:]

    /// A running test's layer, and the reports it is to get as it closes.
    private struct Live {
        let layer: OverrideRegistry
        var entered = 0
        /// The keys reported to it, once each.
        var reported: Set<AnyKeyPath> = []
        var pending: [String] = []
    }

    static var isWatching: Bool { watching.loadRelaxed() != 0 }

    /// Counts `layer` as a running test's, until the matching ``leave(_:)``.
    static func enter(_ layer: OverrideRegistry) {
        lock.withLock {
            if live.isEmpty { MemoTable.beginDetour() }
            live[ObjectIdentifier(layer), default: Live(layer: layer)].entered += 1
            watching.storeRelaxed(1)
        }
    }

    /// Called in the test's own task as its layer closes, to fail it with its reports.
    static func leave(_ layer: OverrideRegistry) {
        let pending = lock.withLock {
            let id = ObjectIdentifier(layer)
            guard var entry = live[id] else {
                assertionFailure("InjectableKit: a test layer left more often than it entered")
                return [String]()
            }
            entry.entered -= 1
            let pending = entry.pending
            entry.pending = []
            live[id] = entry.entered == 0 ? nil : entry
            watching.storeRelaxed(live.isEmpty ? 0 : 1)
            if live.isEmpty { MemoTable.endDetour() }
            return pending
        }
        guard !pending.isEmpty, let reporter = TestHook.reporter else { return }
        for message in pending { reporter.reportUnlayeredResolution(message) }
    }

    /// Notes `keyPath`, resolved outside any layer, for each test layer that overrides it.
    static func check(_ keyPath: AnyKeyPath) {
        guard let reporter = TestHook.reporter, ThreadState.current.probe == nil else { return }
        let type = ObjectIdentifier(Swift.type(of: keyPath).valueType)
        let layers = lock.withLock { live.values.map(\.layer) }
        let overriding = layers.filter { layer in
            layer.chain.contains { $0.isLayer && $0.overrides(key: keyPath, type: type) }
        }
        guard !overriding.isEmpty, reporter.reportsUnlayeredResolution() else { return }
        let key = KeyNames.describe(keyPath)
        let message =
            "InjectableKit: \(key) was resolved outside any layer while this test overrides it "
            + "in its own, so that resolution got the live value, not the test's. Work that "
            + "leaves a test's task (`Task.detached`, a `DispatchQueue` block, a thread, a "
            + "stored callback) leaves its layer: capture `let overrides = "
            + "Injections.currentOverrides` in the test and run that work in "
            + "`Injections.withOverrides(overrides) { ... }`."
        lock.withLock {
            for layer in overriding {
                // A layer that closed meanwhile has had its reports.
                let id = ObjectIdentifier(layer)
                guard live[id]?.reported.insert(keyPath).inserted == true else { continue }
                live[id]?.pending.append(message)
            }
        }
    }
}
