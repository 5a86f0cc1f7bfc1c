import CInjectableAtomics

/// The layers that running tests resolve in (the `.injections` trait's), so that a resolution
/// made outside any layer meanwhile, of a key one of them overrides, is reported: it got the
/// live value where the test that started the work meant its own.
///
/// States: *idle* (no test layer: `watching` is false and resolutions never come here) and
/// *watching* (at least one). Invariant: `watching` is true exactly while `live` is not empty;
/// both change under `lock`, and only while `InjectableTesting` runs a test in its layer.
/// A live layer keeps the memo's detour on (see `OverrideRegistry.init`), so while watching,
/// every resolution reaches `Resolver.detour`, where the check runs.
enum TestLayers {
    /// 1 while watching, else 0.
    private static var watching: AtomicWord { AtomicWord(static: IK_TEST_LAYERS_WATCHING) }
    private static let lock = Lock(rank: .leaf)
    // Guarded by `lock`.
    nonisolated(unsafe) private static var live: [ObjectIdentifier: (OverrideRegistry, Int)] = [:]

    static var isWatching: Bool { watching.loadRelaxed() != 0 }

    /// Counts `layer` as a running test's, until the matching ``leave(_:)``.
    static func enter(_ layer: OverrideRegistry) { change(layer, by: 1) }

    static func leave(_ layer: OverrideRegistry) { change(layer, by: -1) }

    private static func change(_ layer: OverrideRegistry, by step: Int) {
        lock.withLock {
            let id = ObjectIdentifier(layer)
            let count = (live[id]?.1 ?? 0) + step
            assert(count >= 0, "InjectableKit: a test layer left more often than it entered")
            live[id] = count == 0 ? nil : (layer, count)
            watching.storeRelaxed(live.isEmpty ? 0 : 1)
            assert((watching.loadRelaxed() != 0) == !live.isEmpty)
        }
    }

    /// Reports `keyPath`, resolved outside any layer, if a running test's layer overrides it.
    static func check(_ keyPath: AnyKeyPath) {
        guard let reporter = TestHook.reporter, ThreadState.current.probe == nil else { return }
        let type = ObjectIdentifier(Swift.type(of: keyPath).valueType)
        let layers = lock.withLock { live.values.map(\.0) }
        let overridden = layers.contains { layer in
            layer.chain.contains { $0.isLayer && $0.overrides(key: keyPath, type: type) }
        }
        guard overridden else { return }
        let key = KeyNames.describe(keyPath)
        reporter.reportUnlayeredResolution(
            "InjectableKit: \(key) was resolved outside any layer while a running test "
                + "overrides it in its own, so this resolution got the live value, not the "
                + "test's. Work that leaves a test's task (`Task.detached`, a `DispatchQueue` "
                + "block, a thread, a stored callback) leaves its layer: capture `let overrides "
                + "= Injections.currentOverrides` in the test and run that work in "
                + "`Injections.withOverrides(overrides) { ... }`.",
            key: key.hasPrefix("\\") ? key : "\(key) (\(ObjectIdentifier(keyPath)))")
    }
}
