import TestSupport
import Testing

@testable import InjectableKit

extension Injections {
    var layerTraceMine: DiagnosticsAPI { cached(DiagnosticsAPI()) }
    var layerTraceOthers: DiagnosticsAPI { cached(DiagnosticsAPI()) }
}

/// A trace or graph recording started in a layer sees that layer's resolutions only. Each test
/// runs in its own layer; the "other test" is a second layer resolving at the same time.
@Suite struct LayerTraceTests {
    /// Runs `other` in its own layer, over and over, until `body` (in a layer) returns.
    private func whileAnotherLayerResolves(_ body: @Sendable () async -> Void) async {
        let done = Flag()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await Injections.withOverrides { _ in
                } operation: {
                    while !done.value.load(ordering: .acquiring) {
                        _ = Injections.container.resolve(\.layerTraceOthers)
                        await Task.yield()
                    }
                }
            }
            await Injections.withOverrides { _ in
            } operation: {
                await body()
            }
            done.value.store(true, ordering: .releasing)
        }
    }

    @Test func aTraceStartedInALayerReportsThatLayersResolutionsOnly() async {
        let events = Guarded<[String]>([])
        await whileAnotherLayerResolves {
            Injections.container.trace { event in
                guard case .resolved(let key, _, _, _, _) = event else { return }
                events.withLock { $0.append(key) }
            }
            for _ in 0..<50 {
                _ = Injections.container.resolve(\.layerTraceMine)
                await Task.yield()
            }
            // Nested layers are the layer's too.
            Injections.withOverrides { _ in
            } operation: {
                _ = Injections.container.resolve(\.diagnosticsAPI)
            }
            Injections.container.trace(nil)
        }
        let keys = events.withLock { $0 }
        #expect(keys.contains(#"\.layerTraceMine"#))
        #expect(keys.contains(#"\.diagnosticsAPI"#))
        #expect(!keys.contains(#"\.layerTraceOthers"#))
    }

    @Test func aGraphRecordedInALayerHoldsThatLayersResolutionsOnly() async {
        let keys = Guarded<[String]>([])
        await whileAnotherLayerResolves {
            Injections.container.recordGraph()
            for _ in 0..<50 {
                _ = Injections.container.resolve(\.layerTraceMine)
                await Task.yield()
            }
            let recorded = Injections.container.stopRecordingGraph().nodes.map { $0.key }
            keys.withLock { $0 = recorded }
        }
        #expect(keys.withLock { $0 } == [#"\.layerTraceMine"#])
    }
}

private final class Flag: Sendable {
    let value = TestAtomic<Bool>(false)
}

/// A trace started in a layer and never stopped ends with its layer, so that later
/// resolutions do not keep paying for it.
@Suite struct LayerTraceLifetimeTests {
    @Test func aTraceStartedInALayerEndsWithTheLayer() {
        let serial = Injections.withOverrides { _ in
        } operation: {
            Injections.container.trace { _ in }
            let serial = OverrideRegistry.current.serial
            #expect(Diagnostics.isOn(inLayer: serial))
            return serial
        }
        #expect(!Diagnostics.isOn(inLayer: serial))
    }
}
