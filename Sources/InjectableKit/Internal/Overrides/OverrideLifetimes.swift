import CInjectableAtomics
import Foundation

/// Where a getter's first scope helper keeps its instance: the lifetime that an override of the
/// key keeps, and the helper's decoration, which every override of the key runs (see
/// `Resolver.serve`).
struct Placement {
    let scope: Injections.Scope
    let site: Site
    let timeToLive: TimeToLive?
    let decoration: AnyDecoration?
}

/// The lifetimes and decorations that overrides keep, learned once per key by a probe: the key's
/// getter runs on a thread of its own, with `probeToken`, and its first scope helper reports
/// where it keeps its instance, and its decoration, and ends that thread before building
/// anything (`reached(_:)`). A getter that returns instead has no helper (a unique key): it
/// built its value, on the probe's thread. One that resolves other keys before its helper has
/// resolved them there: it is warned about once.
/// See Internal/README.md, "Overrides keep their key's lifetime".
enum OverrideLifetimes {
    /// What a key's probe found, which every override of the key then uses: the probe itself,
    /// once its thread has ended.
    typealias Learned = Probe

    /// The token a probed getter is handed: no frame has it (its frame index would be 65,534).
    static let probeToken = UInt64.max

    /// What a probe found, written by its thread before it ends and read, once it has ended,
    /// by the thread that waited for it and, through the table, by every later resolution:
    /// where the key keeps its instance (the placement of its getter's first scope helper, or
    /// none: a getter without a helper makes a value each time). A class, so that handing one
    /// out is one retain.
    class Probe: @unchecked Sendable {
        // @unchecked: written by the probe's thread only, and read after `pthread_join`.
        final fileprivate(set) var placement: Placement?
        final var resolvedOthers = false

        /// Runs the getter, with `probeToken`.
        fileprivate func run() {}
    }

    private final class KeyProbe<Value>: Probe, @unchecked Sendable {
        let keyPath: KeyPath<Injections, Value>

        init(_ keyPath: KeyPath<Injections, Value>) { self.keyPath = keyPath }

        override func run() {
            _ = Injections(token: OverrideLifetimes.probeToken)[keyPath: keyPath]
        }
    }

    private final class Table: @unchecked Sendable {
        // @unchecked: the dictionaries are guarded by `lock`.
        let lock = Lock(rank: .leaf)
        // NB: @exclusivity(unchecked): `lock` keeps accesses apart (see `ScopeStorage`).
        @exclusivity(unchecked) var learned: [AnyKeyPath: Learned] = [:]
        /// The same, by keypath object, found without hashing the keypath; each object is
        /// kept, so that its identity is not reused.
        @exclusivity(unchecked) var byObject: [ObjectIdentifier: (AnyKeyPath, Learned)] = [:]

        func find(_ keyPath: AnyKeyPath) -> Learned? {
            if let (_, learned) = byObject[ObjectIdentifier(keyPath)] { return learned }
            guard let learned = learned[keyPath] else { return nil }
            if byObject.count < OverrideLifetimes.limit {
                byObject[ObjectIdentifier(keyPath)] = (keyPath, learned)
            }
            return learned
        }
    }

    private static let table = Table()
    // Keys with arguments are new values at each argument: past this many, they are probed again.
    fileprivate static let limit = 4096

    /// The lifetime of `keyPath`'s registration, learned before or probed now; `nil` if no
    /// thread could be started to probe it.
    static func lifetime<Value>(
        of keyPath: KeyPath<Injections, Value>, named name: @autoclosure () -> String
    ) -> Learned? {
        if let learned = table.lock.withLock({ table.find(keyPath) }) { return learned }
        let probe = KeyProbe(keyPath)
        // The thread may end inside the getter: it takes no reference it would not let go of.
        let status = ik_run_on_new_thread(
            { context in
                Unmanaged<Probe>.fromOpaque(context!)._withUnsafeGuaranteedRef { probe in
                    ThreadState.current.probe = probe
                    probe.run()
                    ThreadState.current.probe = nil
                }
                return nil
            }, Unmanaged.passUnretained(probe).toOpaque())
        guard status == 0 else { return nil }
        let first = table.lock.withLock {
            guard table.learned.count < limit else { return true }
            return table.learned.updateValue(probe, forKey: keyPath) == nil
        }
        if first, probe.resolvedOthers {
            let warning =
                "InjectableKit: warning: \(name())'s getter resolves other keys outside a scope "
                + "helper: they were resolved (once) to learn the lifetime and the decoration that "
                + "the key's overrides keep. Resolve them inside the helper "
                + "(`cached(Service(resolve(\\.other)))`).\n"
            FileHandle.standardError.write(Data(warning.utf8))
        }
        return probe
    }

    /// Called by every scope helper (and `liveOnly`, `contributions(to:)`, helpers that keep
    /// nothing) handed `probeToken`: reports the placement and ends the probe's thread there.
    static func reached(_ placement: @autoclosure () -> Placement?) {
        guard report(placement) else { return }
        ik_end_thread()
    }

    /// Hands `placement` to this thread's probe, if it runs one. Out of line, and the placement
    /// (with its decoration's box) made here, so that no reference it takes is still held when
    /// the thread ends.
    @inline(never)
    private static func report(_ placement: () -> Placement?) -> Bool {
        let thread = ThreadState.current
        guard let probe = thread.probe else { return false }
        probe.placement = placement()
        thread.probe = nil
        return true
    }
}
