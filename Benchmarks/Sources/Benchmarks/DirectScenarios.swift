/// The baseline: what the code would do by hand, without a container.
///
/// - unique, chain, first-after-reset: construct the objects (`ServiceImpl() as any Service`).
/// - application, cached, override-*, threads-*, registrations-*: read a hand-written
///   singleton (`static let shared`); hand-written code has no overrides.
/// - keypath-literal-*: the same singleton reads as registrations-*, each also making and
///   dropping its registration's keypath literal (`keepKeyPath`).
/// - shared: load a `weak var` that something else keeps alive.
/// - wrapper: initialise the owner with the instance passed in, then read it.
struct DirectScenarios: Suite {
    func measure(_ scenario: Scenario, with harness: Harness) -> Double? {
        switch scenario {
        case .unique:
            return harness.measure { n in
                for _ in 0..<n { blackHole(ServiceImpl() as any Service) }
            }
        case .application:
            return harness.measure { n in
                for _ in 0..<n { blackHole(AppSettings.shared) }
            }
        case .overrideOther, .overrideSame:
            return harness.measure { n in
                for _ in 0..<n { blackHole(OverrideTarget.shared) }
            }
        case .shared:
            let held = SharedThing()
            let reference = WeakReference(held)
            return withExtendedLifetime(held) {
                harness.measure { n in
                    for _ in 0..<n { blackHole(reference.value!) }
                }
            }
        case .cached, .cachedLayerKept, .cachedLayerInEffect:
            return harness.measure { n in
                for _ in 0..<n { blackHole(CachedThing.shared) }
            }
        case .cachedCollection:
            return harness.measure { n in
                for _ in 0..<n { blackHole(CollectedThing.all) }
            }
        case .chain:
            return harness.measure { n in
                for _ in 0..<n { blackHole(ChainA(b: ChainB(c: ChainC()))) }
            }
        case .wrapper:
            return harness.measure { n in
                for _ in 0..<n {
                    let owner = DirectOwner(service: WrappedThing.shared)
                    blackHole(owner)  // so that the owner is really allocated
                    blackHole(owner.service)
                }
            }
        case .threads1, .threads2:
            return harness.measureThreads(scenario == .threads1 ? 1 : 2) { thread, n in
                if thread == 0 {
                    for _ in 0..<n { blackHole(AppSettings.shared) }
                } else {
                    for _ in 0..<n { blackHole(ThreadSettings.shared) }
                }
            }
        case .registrations10, .registrations1000, .firstResolution:
            return measureRegistrations(scenario, directRegistrationResolvers, with: harness)
        case .keyPathLiteral10, .keyPathLiteral1000:
            return measureRegistrations(scenario, keyPathLiteralResolvers, with: harness)
        case .firstAfterReset:
            return harness.measure { n in
                for _ in 0..<n { blackHole(ResetThing()) }
            }
        case .resetValueOf10, .resetValueOf100k:
            var cache: [Int: ValueThing] = [:]
            for id in 0..<scenario.heldValues { cache[id] = ValueThing(id: id) }
            return harness.measure { n in
                for _ in 0..<n {
                    cache[3] = nil
                    cache[3] = ValueThing(id: 3)
                    blackHole(cache[3])
                }
            }
        case .callSitesFileA, .callSitesFileB, .callSitesModule2, .callSitesKeysModule:
            return nil  // InjectableKit only: its memo is per keypath object
        case .traceOff, .traceOn:
            return nil  // InjectableKit's own diagnostics
        }
    }
}

private final class WeakReference<Object: AnyObject> {
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}

/// The `wrapper` owner, with its dependency passed in.
private final class DirectOwner {
    let service: WrappedThing
    init(service: WrappedThing) { self.service = service }
}

/// The same closure as a non-`Sendable` one, for `measureRoundRobin`. (Converting the whole
/// array instead, `[@Sendable () -> T]` to `[() -> T]`, crashes at run time with Swift 6.3.1:
/// "Could not cast value of type '@Sendable () -> AnyObject' to '() -> AnyObject'".)
func nonSendable(_ resolve: @escaping @Sendable () -> AnyObject) -> () -> AnyObject {
    resolve
}

/// The order in which a registration scenario calls the first `count` keys' call sites, given
/// one table of sites per file (`files[file][key]`): round robin over the keys, once per file,
/// the file turning with each key and each pass, so that pass `p` resolves key `k` from file
/// `(k + p) % files.count`. Every key is resolved from every file once in `files.count` passes,
/// and consecutive calls come from different files. Its first `count` elements, the first pass,
/// resolve each key once.
func registrationRoundRobin<Resolver>(_ files: [[Resolver]], count: Int) -> [Resolver] {
    (0..<files.count).flatMap { pass in
        (0..<count).map { key in files[(key + pass) % files.count][key] }
    }
}

/// Measures `scenario`, a registration scenario, with the first `scenario.registrationCount`
/// keys of `files` (each file's call sites, see `registrationRoundRobin`): one first pass for
/// `first-resolution`, round robin for the others.
func measureRegistrations(
    _ scenario: Scenario, _ files: [[@Sendable () -> AnyObject]], with harness: Harness
) -> Double {
    let order = registrationRoundRobin(files, count: scenario.registrationCount)
    return measureRegistrationOrder(scenario, order.map(nonSendable), with: harness)
}

/// Measures `scenario`, a registration scenario, calling `order` (made by
/// `registrationRoundRobin`): its first pass for `first-resolution`, all of it round robin for
/// the others.
func measureRegistrationOrder(
    _ scenario: Scenario, _ order: [() -> AnyObject], with harness: Harness
) -> Double {
    if scenario == .firstResolution {
        return measureFirstPass(Array(order.prefix(scenario.registrationCount)))
    }
    return measureRoundRobin(order, with: harness)
}

/// Times one call of each of `resolvers`, made when none of them has run before: the cost of a
/// first resolution. Runs once (a key is resolved for the first time only once in a process),
/// so the figure is one sample, in any mode.
func measureFirstPass(_ resolvers: [() -> AnyObject]) -> Double {
    let elapsed = ContinuousClock().measure {
        for resolve in resolvers { blackHole(resolve()) }
    }
    return elapsed.nanoseconds / Double(resolvers.count)
}

/// Measures calling `resolvers` in turn, one call per operation, after calling each once (which
/// builds every instance and gives each call site its first resolution).
func measureRoundRobin(_ resolvers: [() -> AnyObject], with harness: Harness) -> Double {
    for resolve in resolvers { blackHole(resolve()) }
    return harness.measure { n in
        var index = 0
        for _ in 0..<n {
            blackHole(resolvers[index]())
            index += 1
            if index == resolvers.count { index = 0 }
        }
    }
}
