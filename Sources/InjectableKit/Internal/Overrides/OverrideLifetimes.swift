import CInjectableAtomics
import Foundation

/// Where a getter's first scope helper keeps its instance, and its decoration.
struct Placement {
    let scope: Injections.Scope
    let site: Site
    let timeToLive: TimeToLive?
    let decoration: AnyDecoration?
}

/// Each key's `Placement`, learned once by a probe (README, "Overrides keep their key's lifetime
/// and decoration").
enum OverrideLifetimes {
    /// What a key's probe found: the probe itself, once its thread has ended.
    typealias Learned = Probe

    /// The token a probed getter is handed: no frame has it (its frame index would be 65,534).
    static let probeToken = UInt64.max

    /// A class, so that handing one out is one retain; `placement` is `nil` for a getter with
    /// no helper.
    class Probe: @unchecked Sendable {
        // @unchecked: written by the probe's thread only, and read after `pthread_join`.
        final fileprivate(set) var placement: Placement?
        final var resolvedOthers = false

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
        /// By keypath object, found without hashing; each object kept, so its identity stays.
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

    /// Learned before or probed now; `nil` if no thread could be started to probe it.
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

    /// Called by every helper handed `probeToken`: reports the placement, ends the thread there.
    static func reached(_ placement: @autoclosure () -> Placement?) {
        guard report(placement) else { return }
        ik_end_thread()
    }

    /// Out of line, with the placement made here, so that no reference it takes is still held
    /// when the thread ends.
    @inline(never)
    private static func report(_ placement: () -> Placement?) -> Bool {
        let thread = ThreadState.current
        guard let probe = thread.probe else { return false }
        probe.placement = placement()
        thread.probe = nil
        return true
    }
}
