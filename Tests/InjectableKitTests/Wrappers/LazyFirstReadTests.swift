import Foundation
import InjectableKit
import TestSupport
import Testing

/// Slow to make, and counted, so that a test can tell one resolution from one per thread.
final class SlowLazyService: Sendable {
    static let lazyMade = Counter()
    static let weakMade = Counter()

    init(counting counter: Counter?) {
        counter?.increment()
        Thread.sleep(forTimeInterval: 0.1)  // long enough for every racing thread to arrive
    }
}

extension Injections {
    // Unique keys (no scope helper), so that only the wrapper can make the racers share one
    // instance; each is read by one test only, and overridden by none.
    var slowLazyService: SlowLazyService { SlowLazyService(counting: SlowLazyService.lazyMade) }
    var slowWeakLazyService: SlowLazyService {
        SlowLazyService(counting: SlowLazyService.weakMade)
    }
    var slowOverriddenService: SlowLazyService { SlowLazyService(counting: nil) }
}

/// A lazy wrapper's first read resolves once per owner, however many threads race to it.
///
/// The racers are raw threads, which inherit no task-local layer: they resolve in the global
/// container, or in the layer the wrapper was made in. The suite changes nothing global, so it
/// runs in parallel with the others: the keys are its own, unique (no scope to reset), and no
/// test overrides them outside its own layer.
@Suite struct LazyFirstReadTests {
    @Test func lazyWrapperReadOnFourThreadsAtOnceResolvesOnce() {
        final class Owner: @unchecked Sendable {
            // @unchecked: the wrapper is never reassigned, and reading it is thread-safe.
            @LazyInjectable(\.slowLazyService) var service
        }
        let owner = Owner()
        let before = SlowLazyService.lazyMade.count
        let seen = Guarded<[SlowLazyService]>([])
        #expect(
            runOnThreads(4) { _ in
                let service = owner.service  // outside the lock, so the reads race
                seen.withLock { $0.append(service) }
            })
        #expect(SlowLazyService.lazyMade.count == before + 1)
        let instances = seen.withLock { $0 }
        #expect(instances.count == 4)
        #expect(instances.allSatisfy { $0 === owner.service })
    }

    @Test func weakLazyWrapperReadOnFourThreadsAtOnceResolvesOnce() {
        final class Owner: @unchecked Sendable {
            // @unchecked: the wrapper is never reassigned, and reading it is thread-safe.
            @WeakLazyInjectable(\.slowWeakLazyService) var service
        }
        let owner = Owner()
        let before = SlowLazyService.weakMade.count
        // Each thread keeps what it read, so the instance outlives the last read.
        let seen = Guarded<[SlowLazyService?]>([])
        #expect(
            runOnThreads(4) { _ in
                let service = owner.service  // outside the lock, so the reads race
                seen.withLock { $0.append(service) }
            })
        #expect(SlowLazyService.weakMade.count == before + 1)
        let instances = seen.withLock { $0 }
        #expect(instances.count == 4)
        #expect(instances.allSatisfy { $0 != nil && $0 === owner.service })
    }

    @Test func lazyWrapperOfAnOverrideWithoutAHelperResolvesOnceInItsLayer() {
        final class Owner: @unchecked Sendable {
            // @unchecked: the wrapper is never reassigned, and reading it is thread-safe.
            @LazyInjectable(\.slowOverriddenService) var service
        }
        let made = Counter()
        // Made in a layer, so the threads' first read resolves in it (the wrapper carries
        // it), with the layer's override and its own counter.
        let owner = Injections.withOverrides {
            $0.register(\.slowOverriddenService) { SlowLazyService(counting: made) }
        } operation: {
            Owner()
        }
        let seen = Guarded<[SlowLazyService]>([])
        #expect(
            runOnThreads(4) { _ in
                let service = owner.service  // outside the lock, so the reads race
                seen.withLock { $0.append(service) }
            })
        #expect(made.count == 1)
        #expect(seen.withLock { $0 }.allSatisfy { $0 === owner.service })
    }
}
