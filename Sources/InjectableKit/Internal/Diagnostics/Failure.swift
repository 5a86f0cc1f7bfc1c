/// Run-time errors of the registrations' graph (README, "Failures, key names and verification").
enum Failure {
    static let advice =
        "Break the cycle: inject one side lazily (@LazyInjectable, @WeakLazyInjectable) or "
        + "resolve it when first used rather than while constructing."

    /// A keypath resolved again while its own resolution is in progress on this thread.
    static func cycle(at index: Int, in frames: [Frame]) -> Never {
        stopCycle(frames[index...].map(name(of:)) + [name(of: frames[index])])
    }

    /// Unbounded recursion, typically a cycle through keypaths made at run time (new objects).
    static func tooDeep(_ frames: [Frame], depth: Int) -> Never {
        stopNested("resolutions nested \(depth) deep", innermost: frames.suffix(12).map(name(of:)))
    }

    /// A scope helper reached again while it builds, on one thread: a cycle not through `resolve`.
    static func reentrantConstruction(of entry: Entry, on thread: ThreadState) -> Never {
        let site = entry.key.site
        let helper = "\\.\(site.name)"
        var names = [helper]
        if let start = thread.frames.firstIndex(where: { $0.helperEntry === entry }) {
            let frames = thread.frames[start...]
            names = frames.map(name(of:))
            // The last frame may be the key resolved again through another keypath object (a
            // call site in another file): it closes the chain itself.
            if frames.count < 2 || frames.last?.keyPath != frames.first?.keyPath {
                names.append(helper)
            }
        }
        stopCycle(
            names,
            " (\(site.name) at \(site.file):\(site.line) is needed while it is being constructed)")
    }

    /// A lazy wrapper read again by its own first read's resolution: it would wait for itself.
    static func reentrantLazyRead(
        of keyPath: AnyKeyPath, by wrapper: String, on thread: ThreadState
    )
        -> Never
    {
        let (start, key) = lazyStart(of: keyPath, in: thread.frames)
        let names = (start.map { thread.frames[$0...].map(name(of:)) } ?? [key]) + [key]
        stopCycle(names, " (\(wrapper)(\(key)) is read again while its first read resolves it)")
    }

    /// Threads waiting for each other's builds or first reads in a circle; each has published
    /// what it waits for after its frames last moved (README, "Waiting and cycles").
    static func crossThreadCycle(_ circle: [(ThreadState, Awaited)]) -> Never {
        var names: [String] = []
        var throughLazy = false
        for (index, (thread, awaited)) in circle.enumerated() {
            // This thread builds or resolves what the thread before it waits for.
            var frames = thread.frames[...]
            switch circle[(index + circle.count - 1) % circle.count].1 {
            case .entry(let built, _):
                frames = frames[(frames.firstIndex { $0.helperEntry === built } ?? 0)...]
            case .lazy(let once):
                throughLazy = true
                let (start, key) = lazyStart(of: once.key, in: thread.frames)
                if let start { frames = frames[start...] } else { names.append(key) }
            }
            // A thread's last frame may be the resolution that waits: the next thread's.
            if case .entry(let waited, _) = awaited, frames.last?.helperEntry === waited {
                frames = frames.dropLast()
            }
            names += frames.map(name(of:))
        }
        if let first = names.first { names.append(first) }
        let lazy =
            throughLazy ? ", one of them waiting for another's first read of a lazy wrapper" : ""
        stopCycle(names, " (resolved on \(circle.count) threads at once\(lazy))")
    }

    /// Where the wrapper's key's resolution starts in `frames` (if it has a frame), and its name.
    private static func lazyStart(of keyPath: AnyKeyPath, in frames: [Frame]) -> (Int?, String) {
        if let start = frames.firstIndex(where: { $0.keyPath == keyPath }) {
            return (start, name(of: frames[start]))
        }
        let valueType = type(of: keyPath).valueType
        return (nil, KeyNames.name(of: keyPath) ?? "\\.<\(valueType)>")
    }

    /// `builds` starts and ends with the same construction.
    static func asyncCycle(_ builds: [AsyncBuild]) -> Never {
        stopCycle(
            builds.map { "\\.\($0.name)" },
            " (between asynchronous constructions, which would wait for each other forever)")
    }

    /// Unscoped constructions nested too deep: a cycle through registrations without a scope.
    static func asyncTooDeep(_ build: AsyncBuild) -> Never {
        let unscoped =
            build.unscopedDepth == build.depth
            ? "" : " (\(build.unscopedDepth) of them of registrations without a scope)"
        stopNested(
            "asynchronous constructions nested \(build.depth) deep\(unscoped)",
            innermost: innermost(build))
    }

    private static func stopNested(_ nesting: String, innermost names: [String]) -> Never {
        stop("InjectableKit: \(nesting); a dependency cycle? Innermost: \(chain(names)). \(advice)")
    }

    /// Past `AsyncBuild.depthLimit`, mostly scoped constructions: ever new keys, without end.
    static func asyncRecursion(_ build: AsyncBuild) -> Never {
        stop(
            "InjectableKit: asynchronous constructions nested \(build.depth) deep: an unbounded "
                + "recursion through ever new keys, such as a key with an argument whose "
                + "construction awaits the next argument's? (A cycle is reported as one, or, "
                + "through registrations without a scope, \(AsyncBuild.unscopedDepthLimit) "
                + "deep.) Innermost: \(chain(innermost(build))).")
    }

    /// The names of the 12 innermost constructions down to `build`, outermost first.
    private static func innermost(_ build: AsyncBuild) -> [String] {
        sequence(first: build, next: \.parent).prefix(12).map { "\\.\($0.name)" }.reversed()
    }

    /// A second helper: the key would be served from whichever one the memo saw first.
    static func helpersInSequence(_ frame: Frame, site: Site) -> Never {
        stop(
            "InjectableKit: \(name(of: frame)) called a second scope helper (at \(site.file):"
                + "\(site.line)) after its first had returned. A registration's getter calls one "
                + "helper, which holds its one instance: choose the implementation inside it "
                + "(cached(flag ? A() : B())), or with when(...) contexts or overrides.")
    }

    static func offMainActor(_ type: Any.Type) -> Never {
        let frames = ThreadState.current.frames
        let key = frames.last.map { " for \(name(of: $0))" } ?? ""
        let chain = frames.count > 1 ? " (resolved through \(chain(frames.map(name(of:)))))" : ""
        stop(
            "InjectableKit: the registerOnMainActor override of \(type)\(key) was resolved off "
                + "the main actor\(chain), but its factory must run on the main actor (the "
                + "MainActor global actor). Register it with register { } if nonisolated code "
                + "resolves keys of this type, or resolve them on the main actor.")
    }

    static func notClassBound(_ type: Any.Type) -> Never {
        stop(
            "InjectableKit: @WeakLazyInjectable holds its instance weakly, but \(type) is not a "
                + "class or a class-bound protocol (protocol \(type): AnyObject), so it cannot "
                + "be held weakly (a protocol with primary associated types, any P<T>, is not "
                + "supported either): use @LazyInjectable for it.")
    }

    /// `\.date.now` runs the key's getter past its overrides (`KeyPathShape`). Returns in a test
    /// process, where the test fails; the value exists, so the resolution goes on.
    static func keyPathThroughAKey(of type: Any.Type, caller: StaticString?) {
        let site = caller.map { " (in \($0))" } ?? ""
        mistake(
            "InjectableKit: a keypath through a key was resolved\(site): a keypath of several "
                + "components, such as \\.date.now, of type \(typeName(type, qualified: false)), "
                + "runs the first key's getter directly, so that key's overrides, scope and "
                + "diagnostics never see it. Resolve the key, then read the property: "
                + "resolve(\\.date).now, or @Injectable(\\.date) var date and then date.now.")
    }

    /// Returns in a test process, where the test fails; the value is handed out undecorated.
    static func undecoratedOverride(
        of name: String, keyType: Any.Type, valueType: Any.Type, decorated: Any.Type
    ) {
        let key = typeName(keyType, qualified: false)
        let decorated = typeName(decorated, qualified: false)
        mistake(
            "InjectableKit: \(name)'s decoration takes a \(decorated), and its override built a "
                + "\(typeName(valueType, qualified: false)): it was not decorated. Let the key's "
                + "helper build the key's type, \(key), so that its decoration takes every value "
                + "of the key: cached(\(decorated)() as \(key), decorate: { ... }), or name that "
                + "type in the closure: decorate: { (value: inout \(key)) in ... }.")
    }

    static func sealed(_ attempt: String) -> Never {
        stop(
            "InjectableKit: \(attempt) refused: the container is sealed "
                + "(Injections.container.seal()), so no dependency can be swapped.")
    }

    /// With a test reporter installed, fails the test that made it (or the run) at `file`:`line`
    /// or the outermost resolution's call, and returns; elsewhere, and on a verification thread
    /// (which reports it), stops as ``stop(_:cycle:)`` does.
    static func mistake(_ message: String, file: StaticString? = nil, line: UInt = 0) {
        let thread = ThreadState.current
        let (file, line) =
            file != nil
            ? (file, line) : thread.callLine != 0 ? (thread.callFile, thread.callLine) : (nil, 0)
        guard thread.verification?.parksOnStop != true,
            let reporter = TestHook.reporter,
            reporter.reportMistake(message, fileID: file.map { "\($0)" }, line: Int(line))
        else { stop(message) }
    }

    /// `names` ends with its first key again.
    private static func stopCycle(_ names: [String], _ detail: String = "") -> Never {
        stop("InjectableKit: dependency cycle: \(chain(names))\(detail). \(advice)", cycle: names)
    }

    /// Diagnostics see it first; a verification's thread parks there (`Diagnostics.stopping`).
    static func stop(_ message: String, cycle names: [String]? = nil) -> Never {
        Diagnostics.stopping(message, cycle: names)
        fatalError(message)
    }

    /// The frame's key as `\.name`, if its name is known (see `KeyNames.name(of:sameObject:)`).
    static func knownName(of frame: Frame, sameObject: Bool = false) -> String? {
        frame.name.map { "\\.\($0)" } ?? KeyNames.name(of: frame.keyPath, sameObject: sameObject)
    }

    static func name(of frame: Frame) -> String {
        knownName(of: frame, sameObject: true) ?? "\\.<\(frame.valueType)>"
    }

    static func chain(_ names: [String]) -> String {
        names.joined(separator: " -> ")
    }
}
