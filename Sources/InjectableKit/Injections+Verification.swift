extension Injections {
    /// Resolves each key that `keys` names, once, in a clean world, and reports every problem
    /// found, instead of stopping at the first.
    ///
    /// ```swift
    /// @Test func everyScreenResolves() {
    ///     let report = Injections.verify { keys in
    ///         keys.resolve(\.accountsViewModel)
    ///         keys.resolve(\.profileViewModel)
    ///         keys.resolveNonNil(\.appConfiguration)   // an optional key that must be set
    ///     }
    ///     #expect(report.problems.isEmpty, "\(report)")
    /// }
    /// ```
    ///
    /// Each key resolves on a thread of its own, in a fresh `withOverrides` layer: empty scope
    /// caches, over the overrides in effect where `verify` is called. To verify with overrides
    /// (a signed-in user), call it inside `Injections.withOverrides` or a test's `.injections`
    /// trait. It finds:
    ///
    /// - **cycles**, and whatever else would stop the process (a `liveOnly` registration under
    ///   tests, a resolution nested too deep): the message is reported, and the thread that hit
    ///   it is parked for good, since a getter cannot be unwound. The process keeps one blocked
    ///   thread per such problem, and its later resolutions take the slower, framed path;
    /// - **unset keys**: a key checked with ``VerificationKeys/resolveNonNil(_:file:line:)`` that
    ///   resolves to `nil`;
    /// - **scope mismatches**: a `cached`, `application` or custom cached instance built from a
    ///   class instance of a shorter-lived registration (unique, `graph` or `shared`), which it
    ///   then keeps past that registration's lifetime;
    /// - **hangs**: a key that does not resolve within 10 seconds;
    /// - **unused type overrides**: a type override registered in the layers in effect (the
    ///   test's `.injections` trait, an enclosing `withOverrides`) that has served no
    ///   resolution, by the checks or before them, such as `register { MockService() }` for
    ///   keys declared `any MyServiceType`. It makes the report invalid, like the others.
    ///
    /// Keys isolated to an actor, such as the `@MainActor` view models where an app's screens
    /// start, are checked with ``VerificationKeys/resolveIsolated(_:isolation:file:line:)``
    /// from code on that actor, on the caller's thread.
    ///
    /// A key that takes more than 10 seconds is reported as hanging; to choose the time, use
    /// ``verify(timeout:_:)``.
    ///
    /// - Parameter keys: Names the keys to check.
    /// - Returns: Every problem found, in the order the keys were named.
    public static func verify(_ keys: (inout VerificationKeys) -> Void) -> VerificationReport {
        verify(timeoutSeconds: 10, keys)
    }

    /// Resolves each key that `keys` names, like ``verify(_:)``, and reports a key that does
    /// not resolve within `timeout` as hanging.
    ///
    /// ```swift
    /// let report = Injections.verify(timeout: .seconds(30)) { keys in
    ///     keys.resolve(\.catalogService)   // loads a large file on first use
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: How long one key may take to resolve.
    ///   - keys: Names the keys to check.
    /// - Returns: Every problem found, in the order the keys were named.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    public static func verify(
        timeout: Duration, _ keys: (inout VerificationKeys) -> Void
    ) -> VerificationReport {
        let (seconds, attoseconds) = timeout.components
        return verify(timeoutSeconds: Double(seconds) + Double(attoseconds) / 1e18, keys)
    }

    /// ``verify(_:)``, with the time one key may take in seconds.
    private static func verify(
        timeoutSeconds: Double, _ keys: (inout VerificationKeys) -> Void
    ) -> VerificationReport {
        var list = VerificationKeys()
        keys(&list)
        var problems: [VerificationReport.Problem] = []
        for check in list.checks {
            if check.runsHere,
                problems.contains(where: { $0.kind == .cycle || $0.kind == .stopped })
            {
                problems.append(
                    .init(
                        key: check.name(), kind: .notChecked,
                        message: "not resolved: on the caller's thread, the failure found above "
                            + "would stop the process, if this key reaches it"))
                continue
            }
            let run = VerificationRun(parksOnStop: !check.runsHere)
            problems +=
                check.runsHere
                ? run.runHere(
                    check.run, overrides: makeOverrides { _ in }, fallbackName: check.name)
                : run.run(
                    check.run, overrides: makeOverrides { _ in }, fallbackName: check.name,
                    timeoutSeconds: timeoutSeconds)
        }
        problems += unusedTypeOverrides()
        return VerificationReport(keyCount: list.checks.count, problems: problems)
    }

    /// The type overrides of the layers in effect that have served no resolution, by the
    /// checks (on any thread) or before them: the innermost one for each type, since a closer
    /// one hides the rest.
    private static func unusedTypeOverrides() -> [VerificationReport.Problem] {
        var seen: Set<ObjectIdentifier> = []
        return OverrideRegistry.current.chain.filter(\.isLayer).flatMap(\.typeOverrides)
            .filter { seen.insert(ObjectIdentifier($0.valueType)).inserted }
            .compactMap { override in
                guard case .unused(let typeName, let message) = TypeOverride(override) else {
                    return nil
                }
                return .init(
                    key: "register { ... as \(typeName) }", kind: .unusedOverride,
                    message: message)
            }
    }

    /// The keys that ``Injections/verify(_:)`` checks.
    public struct VerificationKeys {
        struct Check {
            /// Asked once the check has run, which may have learned the key's name.
            let name: @Sendable () -> String
            /// Whether `run` resolves a key isolated to the caller's actor, on its thread.
            var runsHere = false
            let run: @Sendable () -> String?
        }

        var checks: [Check] = []

        /// Names a key by its registration once a resolution has learned it, else by its type
        /// and where it is named here: its keypath would print an address.
        private static func name<Value>(
            _ key: LentKey<Value>, file: StaticString, line: UInt
        ) -> @Sendable () -> String {
            {
                KeyNames.name(of: key.keyPath)
                    ?? "<key of type \(Value.self)> checked at \(file):\(line)"
            }
        }

        /// Checks that `key` resolves.
        ///
        /// For a key isolated to an actor, such as a `@MainActor` view model, use
        /// ``resolveIsolated(_:isolation:file:line:)``.
        ///
        /// - Parameters:
        ///   - key: The key, for example `\.accountsService`.
        ///   - file: Where the key is named, for a key whose name the report cannot learn, and
        ///     where a mistake its resolution makes in a test is reported; leave the default.
        ///   - line: The line where the key is named, likewise.
        public mutating func resolve<Value>(
            _ key: any KeyPath<Injections, Value> & Sendable, file: StaticString = #fileID,
            line: UInt = #line
        ) {
            let key = LentKey(key)
            checks.append(
                Check(name: Self.name(key, file: file, line: line)) {
                    _ = Injections.container.resolve(key.keyPath, fileID: file, line: line)
                    return nil
                })
        }

        /// Checks that a key isolated to the caller's actor resolves, such as the `@MainActor`
        /// view model where a screen starts, from code on that actor.
        ///
        /// ```swift
        /// @MainActor @Test func everyScreenResolves() {
        ///     let report = Injections.verify { keys in
        ///         keys.resolveIsolated(\.accountsViewModel)
        ///         keys.resolve(\.accountsService)
        ///     }
        ///     #expect(report.problems.isEmpty, "\(report)")
        /// }
        /// ```
        ///
        /// The key resolves on the caller's thread, as the app resolves it, in a fresh layer,
        /// and its report finds what the others do, with two differences: `timeout` does not
        /// bound it, and a failure that stops the process (a cycle) stops it here too, with its
        /// message, since the caller's thread cannot be parked. Name the keys such a key
        /// resolves first, with ``resolve(_:file:line:)``: a cycle among them is then reported,
        /// and the keys named after it with `resolveIsolated` are reported as not checked.
        ///
        /// - Parameters:
        ///   - key: The key, for example `\.accountsViewModel`.
        ///   - isolation: The caller's actor, which the key is isolated to; leave the default.
        ///   - file: Where the key is named, for a key whose name the report cannot learn, and
        ///     where a mistake its resolution makes in a test is reported; leave the default.
        ///   - line: The line where the key is named, likewise.
        public mutating func resolveIsolated<Value>(
            _ key: KeyPath<Injections, Value>, isolation: isolated any Actor = #isolation,
            file: StaticString = #fileID, line: UInt = #line
        ) {
            let key = LentKey(key)
            checks.append(
                Check(name: Self.name(key, file: file, line: line), runsHere: true) {
                    _ = Injections.container.resolve(key.keyPath, fileID: file, line: line)
                    return nil
                })
        }

        /// Checks that an optional `key` resolves to a value, not `nil`.
        ///
        /// - Parameters:
        ///   - key: The key, for example `\.currentUser`.
        ///   - file: Where the key is named, for a key whose name the report cannot learn, and
        ///     where a mistake its resolution makes in a test is reported; leave the default.
        ///   - line: The line where the key is named, likewise.
        public mutating func resolveNonNil<Value>(
            _ key: any KeyPath<Injections, Value?> & Sendable, file: StaticString = #fileID,
            line: UInt = #line
        ) {
            let key = LentKey(key)
            checks.append(
                Check(name: Self.name(key, file: file, line: line)) {
                    guard Injections.container.resolve(key.keyPath, fileID: file, line: line) == nil
                    else { return nil }
                    return "resolved to nil, but it must be set"
                })
        }
    }

    /// What ``Injections/verify(_:)`` found.
    public struct VerificationReport: Sendable, CustomStringConvertible {
        /// One problem with one key.
        public struct Problem: Sendable, Hashable, CustomStringConvertible {
            /// What kind of problem it is.
            public enum Kind: Sendable, Hashable {
                /// A dependency cycle.
                case cycle
                /// Another failure that stops the process, such as a `liveOnly` registration
                /// built under tests.
                case stopped
                /// A key that must be set resolved to `nil`.
                case unset
                /// A long-lived instance holds a shorter-lived one.
                case scopeMismatch
                /// The key did not resolve in time.
                case timedOut
                /// A type override of the layers in effect served none of the verified keys:
                /// its type is not the declared type of any of them.
                case unusedOverride
                /// A key isolated to the caller's actor that was not resolved, since an
                /// earlier check found a failure that would stop the process on the caller's
                /// thread (see ``VerificationKeys/resolveIsolated(_:isolation:file:line:)``).
                case notChecked
            }

            /// The key, as `\.name`; for an unused override, the override.
            let key: String
            /// What kind of problem it is.
            public let kind: Kind
            /// What went wrong, in words.
            let message: String

            /// The key and what went wrong: `\.user: resolved to nil, but it must be set`.
            public var description: String { "\(key): \(message)" }
        }

        /// How many keys were checked.
        let keyCount: Int
        /// Every problem found, in the order the keys were named: empty when every key
        /// resolved without one.
        public let problems: [Problem]

        /// A summary line, then one line per problem.
        public var description: String {
            let summary =
                "InjectableKit verified \(keyCount) key\(keyCount == 1 ? "" : "s"): "
                + (problems.isEmpty
                    ? "no problems" : "\(problems.count) problem\(problems.count == 1 ? "" : "s")")
            return ([summary] + problems.map { "- \($0)" }).joined(separator: "\n")
        }
    }
}
