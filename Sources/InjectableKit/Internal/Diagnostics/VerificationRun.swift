import Foundation

/// One key's check for `Injections.verify` (README, "Failures, key names and verification").
final class VerificationRun: @unchecked Sendable {
    // @unchecked: the mutable state is guarded by `lock`; `done` is thread-safe.
    private struct Node {
        var name: String
        /// `Scope.unique`'s where the resolution called no scope helper.
        var scope: Injections.Scope.Summary
        var holdsObject: Bool
    }

    private let lock = Lock(rank: .recording)
    private var nodes: [UInt64: Node] = [:]
    private var edges: [(parent: UInt64, child: UInt64)] = []
    /// The check's own finding (`.unset`), or what stopped it, then its one problem.
    private var finding: (kind: Injections.VerificationReport.Problem.Kind, message: String)?
    /// The outermost key resolved, or being resolved when the check stopped.
    private var outermost: String?
    private let done = DispatchSemaphore(value: 0)
    /// `false` for a check on the caller's thread, where a failure stops the process.
    let parksOnStop: Bool

    init(parksOnStop: Bool) {
        self.parksOnStop = parksOnStop
    }

    /// Records a finished resolution on this run's thread, and its edge from `parent`.
    func resolved(_ frame: Frame, parent: Frame?, holdsObject: Bool) {
        let node = Node(
            name: Failure.name(of: frame), scope: frame.scope ?? Injections.Scope.unique.summary,
            holdsObject: holdsObject)
        lock.withLock {
            nodes[frame.token] = node
            if let parent { edges.append((parent.token, frame.token)) }
            if parent == nil { outermost = Failure.knownName(of: frame) }
        }
    }

    /// Runs `check` in a fresh layer and waits: on a thread of its own, or on the caller's for a
    /// key isolated to the caller's actor (`runsHere`).
    func run(
        _ check: Injections.VerificationKeys.Check, timeoutSeconds: Double
    ) -> [Injections.VerificationReport.Problem] {
        let overrides = Injections.makeOverrides { _ in }
        let resolve: @Sendable () -> Void = { [self] in
            let thread = ThreadState.current
            let enclosing = thread.verification
            thread.verification = self
            let finding = Injections.withOverrides(overrides) { check.run() }
            thread.verification = enclosing
            lock.withLock { self.finding = finding.map { (.unset, $0) } }
        }
        if parksOnStop {
            Thread.detachNewThread { [self] in
                resolve()
                done.signal()
            }
            guard done.wait(timeout: .now() + timeoutSeconds) == .success else {
                return [
                    .init(
                        key: check.name(), kind: .timedOut,
                        message: "did not finish resolving within \(timeoutSeconds) seconds")
                ]
            }
        } else {
            resolve()
        }
        // Named before the lock: naming may let go of what a resolution taught (`KeyNames`).
        let needsName = lock.withLock { finding != nil && outermost == nil }
        let name = needsName ? check.name() : ""
        return lock.withLock { findings(fallbackName: name) }
    }

    /// Reports the failure that would stop the process, and parks the calling thread for good.
    func stop(_ message: String, isCycle: Bool) -> Never {
        let thread = ThreadState.current
        thread.verification = nil
        let key = thread.frames.first.flatMap { Failure.knownName(of: $0) }
        lock.withLock { (outermost, finding) = (key, (isCycle ? .cycle : .stopped, message)) }
        done.signal()
        DispatchSemaphore(value: 0).wait()
        fatalError("InjectableKit: a parked verification thread woke up")
    }

    /// Call with `lock` locked.
    private func findings(fallbackName: String) -> [Injections.VerificationReport.Problem] {
        var found: [Injections.VerificationReport.Problem] = []
        if let finding {
            let key = outermost ?? fallbackName
            found.append(.init(key: key, kind: finding.kind, message: finding.message))
            if finding.kind != .unset { return found }
        }
        var seen: Set<String> = []
        for (parentToken, childToken) in edges {
            guard let parent = nodes[parentToken], let child = nodes[childToken],
                let mismatch = Self.mismatch(parent: parent, child: child),
                seen.insert(mismatch).inserted
            else { continue }
            found.append(.init(key: parent.name, kind: .scopeMismatch, message: mismatch))
        }
        return found
    }

    /// A long-lived instance holding a shorter-lived class instance keeps it past its life.
    private static func mismatch(parent: Node, child: Node) -> String? {
        guard [.cached, .application].contains(parent.scope.kind), child.holdsObject else {
            return nil
        }
        let lifetime: String
        switch child.scope.kind {
        case .unique: lifetime = "a new instance on every resolution"
        case .graph: lifetime = "one instance per resolution"
        case .shared: lifetime = "an instance that lives while something holds it"
        case .cached, .application: return nil
        }
        return "\(parent.name) (\(parent.scope.name)) holds \(child.name) (\(child.scope.name)), "
            + "\(lifetime), and keeps the one it was built with as long as it lives"
    }
}
