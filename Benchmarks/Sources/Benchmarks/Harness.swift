import Foundation
import Synchronization

/// Hands a value to code the optimiser cannot see into, so that the work producing it is not
/// removed as dead code. Costs one call (about 1 ns), the same for every library and for direct
/// construction.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// Takes a keypath the optimiser cannot see used, so that the call site really makes the
/// literal (`swift_getKeyPath`: its pattern, its cache, a retain) and drops it (a release), as
/// every call site of an API spelled with keypath literals does. Not generic, so that the call
/// needs no metadata for the keypath's type.
@inline(never)
@_optimize(none)
func keepKeyPath(_ keyPath: AnyKeyPath) {}

/// How long each measurement runs.
struct HarnessSettings: Sendable {
    /// Time spent running a benchmark before its samples are taken.
    let warmUp: Duration
    /// The time one sample aims for; the iteration count is calibrated to it.
    let sampleTime: Duration
    /// How many samples; the median of them is reported.
    let samples: Int

    static let full = HarnessSettings(
        warmUp: .milliseconds(40), sampleTime: .milliseconds(15), samples: 15)
    /// For CI: checks that every scenario still runs, in a few milliseconds each.
    static let quick = HarnessSettings(
        warmUp: .microseconds(500), sampleTime: .milliseconds(1), samples: 3)
}

/// A small benchmark harness: calibrate, warm up, take samples, report the median in
/// nanoseconds per operation.
struct Harness: Sendable {
    let settings: HarnessSettings

    /// Measures `body`, which must run its operation exactly `iterations` times, and returns
    /// the median nanoseconds per operation over the samples.
    func measure(_ body: (_ iterations: Int) -> Void) -> Double {
        let iterations = calibrate(body)
        let clock = ContinuousClock()
        let warmUpEnd = clock.now + settings.warmUp
        repeat { body(iterations) } while clock.now < warmUpEnd

        var perOperation: [Double] = []
        perOperation.reserveCapacity(settings.samples)
        for _ in 0..<settings.samples {
            let elapsed = clock.measure { body(iterations) }
            perOperation.append(elapsed.nanoseconds / Double(iterations))
        }
        return median(perOperation)
    }

    /// Measures several bodies whose figures are compared with each other, as `measure` does
    /// each, but in one go: each is calibrated and warmed up, then the samples are taken in
    /// rounds, one sample of each body per round, so that a change in the machine's speed during
    /// the run touches every figure alike. Returns each body's median nanoseconds per operation,
    /// in order.
    func measureTogether(_ bodies: [(_ iterations: Int) -> Void]) -> [Double] {
        let iterations = bodies.map { calibrate($0) }
        let clock = ContinuousClock()
        for (body, count) in zip(bodies, iterations) {
            let warmUpEnd = clock.now + settings.warmUp
            repeat { body(count) } while clock.now < warmUpEnd
        }

        var perOperation = Array(repeating: [Double](), count: bodies.count)
        for _ in 0..<settings.samples {
            for (index, body) in bodies.enumerated() {
                let elapsed = clock.measure { body(iterations[index]) }
                perOperation[index].append(elapsed.nanoseconds / Double(iterations[index]))
            }
        }
        return perOperation.map(median)
    }

    /// Measures `body` run by `threads` threads at once, each doing `iterations` operations
    /// after a barrier, and returns the median wall time per operation per thread: with perfect
    /// scaling it equals the one-thread figure.
    /// Each thread runs `body` with its own index (0 or 1), so that the threads resolve one
    /// key each, as the threads of an app resolve the singletons their own work needs.
    func measureThreads(
        _ threads: Int, _ body: @escaping @Sendable (_ thread: Int, _ iterations: Int) -> Void
    )
        -> Double
    {
        let iterations = calibrate { body(0, $0) }
        let warmUpIterations = max(1, iterations / 10)
        var perOperation: [Double] = []
        let sampleCount = settings.samples
        // One extra, discarded, round warms up the threads' machinery and the caches.
        for round in 0...sampleCount {
            let wall = runOnThreads(threads) { thread, ready in
                body(thread, warmUpIterations)  // fills per-thread state (InjectableKit's memo)
                ready()
                let start = ContinuousClock.now
                body(thread, iterations)
                return (start, ContinuousClock.now)
            }
            if round > 0 { perOperation.append(wall.nanoseconds / Double(iterations)) }
        }
        return median(perOperation)
    }

    /// Finds an iteration count for which `body` takes about one sample time.
    private func calibrate(_ body: (_ iterations: Int) -> Void) -> Int {
        let clock = ContinuousClock()
        let target = settings.sampleTime.nanoseconds
        var iterations = 1
        while true {
            let elapsed = clock.measure { body(iterations) }.nanoseconds
            if elapsed >= target / 10 || iterations >= 1 << 40 {
                return max(1, Int(Double(iterations) * target / max(elapsed, 1)))
            }
            // Grow fast while the run is too short to time, more carefully near the target.
            iterations *= elapsed < target / 1000 ? 16 : 2
        }
    }

    /// Runs `work` on `count` new threads; each calls the closure it is given once it is ready,
    /// and returns when its timed part started and ended. Returns the wall time from the first
    /// start to the last end.
    private func runOnThreads(
        _ count: Int,
        _ work: @escaping @Sendable (_ thread: Int, _ ready: () -> Void) -> Span
    ) -> Duration {
        let round = ThreadRound(count)
        for thread in 0..<count {
            Thread {
                let span = work(thread) {
                    // A spinning barrier, so that the threads start together.
                    round.waiting.subtract(1, ordering: .acquiringAndReleasing)
                    while round.waiting.load(ordering: .acquiring) > 0 {}
                }
                round.spans.withLock { $0.append(span) }
                round.done.signal()
            }.start()
        }
        for _ in 0..<count { round.done.wait() }
        let spans = round.spans.withLock { $0 }
        return spans.map(\.end).max()! - spans.map(\.start).min()!
    }
}

/// When a thread's timed part started and ended.
private typealias Span = (start: ContinuousClock.Instant, end: ContinuousClock.Instant)

/// The state the threads of one measurement round share.
private final class ThreadRound: Sendable {
    /// How many threads have not reached the barrier yet.
    let waiting: Atomic<Int>
    /// Each thread's timed span.
    let spans = Mutex<[Span]>([])
    let done = DispatchSemaphore(value: 0)

    init(_ count: Int) {
        waiting = Atomic(count)
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

extension Duration {
    /// The duration in nanoseconds, as a floating-point number.
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
