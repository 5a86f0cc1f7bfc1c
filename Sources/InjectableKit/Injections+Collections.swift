extension Injections {
    /// Every element contributed to a collection key, in the order the contributions were made:
    /// the body of an ordered collection's registration.
    ///
    /// A collection key gathers elements that many modules declare, none of them known to the
    /// module that uses the collection: every analytics sink, every launch task. Each element is
    /// a key of its own, with its own scope, contributed with
    /// ``contribute(_:to:file:line:)`` from the ``AutoRegistering`` hook:
    ///
    /// ```swift
    /// // Core module: the collection
    /// extension Injections {
    ///     public var analyticsSinks: Contributions<any AnalyticsSink> {
    ///         cached(contributions(to: \.analyticsSinks))
    ///     }
    /// }
    /// // A feature module: an element, and the function that contributes it
    /// extension Injections {
    ///     var consoleSink: any AnalyticsSink { cached(ConsoleSink()) }
    ///     public static func contributeConsoleFeature() {
    ///         container.contribute(\.consoleSink, to: \.analyticsSinks)
    ///     }
    /// }
    /// // The app
    /// extension Injections: @retroactive AutoRegistering {
    ///     public static func registerAllServices() {
    ///         contributeConsoleFeature()
    ///     }
    /// }
    /// ```
    ///
    /// Each resolution of an element goes through the container, so overrides apply to it, and
    /// each element keeps its own scope: a `cached` element is the same instance in every
    /// collection built, a unique one is new each time. The helper around `contributions(to:)`
    /// says how long the assembled ``Contributions`` is kept; overriding or resetting an
    /// element's key drops a kept collection, and what was built from it, like any dependency.
    ///
    /// > Important: A collection kept longer than one of its elements' scopes keeps that
    /// > element too: wrap the collection in a scope no longer than its shortest-lived
    /// > element's, or in none (`contributions(to:)` alone assembles it at each resolution).
    ///
    /// It stops the process with a message naming the key when the same element was
    /// contributed twice, or when fewer than `minimumCount` elements were contributed;
    /// ``Injections/verify(_:)`` reports both.
    ///
    /// - Parameters:
    ///   - collection: The collection's own key: the property this getter belongs to.
    ///   - minimumCount: How many elements the collection needs at least; 1 for a collection
    ///     that must not be empty.
    ///   - function: The registration's name; leave the default.
    /// - Returns: Each contributed element, resolved through the container.
    public func contributions<Element>(
        to collection: KeyPath<Injections, Contributions<Element>>, minimumCount: Int = 0,
        function: StaticString = #function
    ) -> Contributions<Element> {
        resolveContributions(to: collection, minimumCount: minimumCount, function: function)
    }

    /// Every element contributed to a dictionary collection key, under the key it was
    /// contributed for: the body of a dictionary collection's registration.
    ///
    /// ```swift
    /// extension Injections {
    ///     public var settingsSections: KeyedContributions<SettingsSectionID, any SettingsSection> {
    ///         cached(contributions(to: \.settingsSections))
    ///     }
    /// }
    /// // In a feature module's contribution function:
    /// container.contribute(\.privacySection, to: \.settingsSections, forKey: .privacy)
    /// ```
    ///
    /// It works as the ordered form, ``contributions(to:minimumCount:function:)-(KeyPath<Injections,Contributions<Element>>,_,_)``;
    /// it also stops the process, naming both contributions, when two elements were
    /// contributed for one dictionary key.
    ///
    /// - Parameters:
    ///   - collection: The collection's own key: the property this getter belongs to.
    ///   - minimumCount: How many elements the collection needs at least.
    ///   - function: The registration's name; leave the default.
    /// - Returns: Each contributed element, resolved through the container, under its key.
    public func contributions<Key: Hashable, Element>(
        to collection: KeyPath<Injections, KeyedContributions<Key, Element>>,
        minimumCount: Int = 0, function: StaticString = #function
    ) -> KeyedContributions<Key, Element> {
        resolveContributions(to: collection, minimumCount: minimumCount, function: function)
    }

    /// The collection of the contributions made to `collection`, each with its element
    /// resolved, those a layer's edits add or remove aside (its override applies them to this
    /// collection, see `LayerEdits`). Marks the collection resolved.
    private func resolveContributions<Collection: EditableCollection>(
        to collection: AnyKeyPath, minimumCount: Int, function: StaticString
    ) -> Collection {
        if token == OverrideLifetimes.probeToken { OverrideLifetimes.reached(nil) }
        let name = "\\.\(function)"
        AutoRegistration.ensure()
        // The key being resolved, if this runs in its resolution, must be the collection named.
        if let frame = ThreadState.current.frames.last, frame.keyPath != collection {
            CollectionFailure.otherKey(
                KeyNames.name(of: collection) ?? "a collection key", in: Failure.name(of: frame))
        }
        let assembled = AssembledContributions(
            ContributionTable.shared.contributions(to: collection, resolvedBy: name))
        if let (first, second) = assembled.duplicates.first {
            CollectionFailure.duplicate(first, second, in: name)
        }
        if assembled.elements.count < minimumCount {
            CollectionFailure.tooFew(assembled.elements.count, minimumCount, in: name)
        }
        let filed: [Filed<Collection.Value>] = assembled.elements.map { contribution in
            let element = unsafeDowncast(
                contribution.element, to: KeyPath<Injections, Collection.Value>.self)
            return (contribution.dictionaryKey, contribution, resolve(element, caller: function))
        }
        return Collection(filed: filed)
    }
}

extension Injections {
    /// Contributes an element key to an array collection key: the collection's resolutions
    /// include the element, after those contributed before it.
    ///
    /// Make contributions in the ``AutoRegistering`` hook, `registerAllServices()`: it runs
    /// before the container's first use, in the app and in every test process that links it,
    /// so every collection is complete before anything resolves it. A module offers one
    /// function that makes its contributions, and the app's hook calls each module's, in the
    /// order the collections should list them:
    ///
    /// ```swift
    /// // A feature module
    /// extension Injections {
    ///     var consoleSink: any AnalyticsSink { cached(ConsoleSink()) }
    ///     public static func contributeConsoleFeature() {
    ///         container.contribute(\.consoleSink, to: \.analyticsSinks)
    ///     }
    /// }
    /// // The app
    /// extension Injections: @retroactive AutoRegistering {
    ///     public static func registerAllServices() {
    ///         contributeConsoleFeature()
    ///         contributeCrashReportingFeature()
    ///     }
    /// }
    /// ```
    ///
    /// Inside `Injections.withOverrides` (or a test's `.injections` trait), it adds the element
    /// in that layer only, after the elements in effect there:
    ///
    /// ```swift
    /// @Test(.injections { $0.contribute(\.recordingSink, to: \.analyticsSinks) })
    /// func everyEventReachesTheRecorder() { ... }
    /// ```
    ///
    /// It stops the process, with a message naming the keys and this call, when it comes after
    /// the collection was first resolved (that resolution missed it), after
    /// ``seal()``, or outside the hook and any layer. The same element contributed twice stops
    /// the collection's resolution.
    ///
    /// - Parameters:
    ///   - element: The element's own key, declared with the collection's element type.
    ///   - collection: The collection key.
    ///   - file: Where the call is, for messages; leave the default.
    ///   - line: The line of the call, likewise.
    public func contribute<Element>(
        _ element: KeyPath<Injections, Element>,
        to collection: KeyPath<Injections, Contributions<Element>>,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        let site = "\(file):\(line)"
        Self.edit(
            collection, with: .add(Contribution(element: element, dictionaryKey: nil, site: site)),
            call: "contribute(\(KeyNames.describe(element)), to: \(KeyNames.describe(collection)))"
                + " at \(site)", file: file, line: line)
    }

    /// Contributes an element key to a dictionary collection key, under `key`.
    ///
    /// ```swift
    /// container.contribute(\.privacySection, to: \.settingsSections, forKey: .privacy)
    /// ```
    ///
    /// It follows the rules of the array form, ``contribute(_:to:file:line:)``; two elements
    /// contributed for one `key` stop the collection's resolution.
    ///
    /// - Parameters:
    ///   - element: The element's own key, declared with the collection's value type.
    ///   - collection: The collection key.
    ///   - key: The dictionary key the element is filed under.
    ///   - file: Where the call is, for messages; leave the default.
    ///   - line: The line of the call, likewise.
    public func contribute<Key: Hashable & Sendable, Element>(
        _ element: KeyPath<Injections, Element>,
        to collection: KeyPath<Injections, KeyedContributions<Key, Element>>,
        forKey key: Key, file: StaticString = #fileID, line: UInt = #line
    ) {
        let site = "\(file):\(line)"
        Self.edit(
            collection,
            with: .add(Contribution(element: element, dictionaryKey: AnyHashable(key), site: site)),
            call: "contribute(\(KeyNames.describe(element)), to: \(KeyNames.describe(collection)), "
                + "forKey: \(key)) at \(site)", file: file, line: line)
    }

    /// Removes an element from an array or dictionary collection key: the collection's
    /// resolutions no longer include it.
    ///
    /// ```swift
    /// @Test(.injections { $0.removeContribution(\.crashSink, from: \.analyticsSinks) })
    /// func startsWithoutCrashReporting() { ... }
    /// ```
    ///
    /// Inside `Injections.withOverrides` (or a test's `.injections` trait), it removes the
    /// element in that layer only. Otherwise it follows the rules of
    /// ``contribute(_:to:file:line:)``: make it in the ``AutoRegistering`` hook, after the
    /// contribution it removes, and before the collection is first resolved. An element not in
    /// the collection stops the process with a message naming it.
    ///
    /// - Parameters:
    ///   - element: The element's own key.
    ///   - collection: The collection key.
    ///   - file: Where the call is, for messages; leave the default.
    ///   - line: The line of the call, likewise.
    public func removeContribution<Element, Collection>(
        _ element: KeyPath<Injections, Element>, from collection: KeyPath<Injections, Collection>,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        Self.edit(
            collection, with: .removeElement(element),
            call: "removeContribution(\(KeyNames.describe(element)), from: "
                + "\(KeyNames.describe(collection))) at \(file):\(line)", file: file, line: line)
    }

    /// Removes the element filed under `key` from a dictionary collection key, as
    /// ``removeContribution(_:from:file:line:)`` removes one element.
    ///
    /// ```swift
    /// @Test(.injections { $0.removeContribution(forKey: .privacy, from: \.settingsSections) })
    /// func listsNoPrivacySection() { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The dictionary key whose element to remove.
    ///   - collection: The collection key.
    ///   - file: Where the call is, for messages; leave the default.
    ///   - line: The line of the call, likewise.
    public func removeContribution<Key: Hashable & Sendable, Element>(
        forKey key: Key, from collection: KeyPath<Injections, KeyedContributions<Key, Element>>,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        Self.edit(
            collection, with: .removeKey(AnyHashable(key)),
            call: "removeContribution(forKey: \(key), from: \(KeyNames.describe(collection))) "
                + "at \(file):\(line)", file: file, line: line)
    }

    /// Makes `edit` to `collection` globally, from the hook, or in the layer in effect;
    /// `file` and `line` locate a mistake's report in a test.
    private static func edit<Collection>(
        _ collection: KeyPath<Injections, Collection>, with edit: CollectionEdit,
        call: @autoclosure () -> String, file: StaticString, line: UInt
    ) {
        Sealing.refuseIfSealed(call())
        AutoRegistration.ensure()
        let inHook = AutoRegistration.isRunningHook
        let onMainActor = ContributionTable.isContributingOnMainActor
        let registry = OverrideRegistry.current
        if registry.isLayer && !inHook && !onMainActor {
            LayerEdits.edit(collection, with: edit, in: registry, call: call())
            return
        }
        // Either mistake, in a test, fails the test and the edit is not made.
        guard inHook || onMainActor else {
            return CollectionFailure.outsideHook(call(), file: file, line: line)
        }
        switch ContributionTable.shared.apply(edit, to: collection, inHook: inHook) {
        case nil: break
        case .resolved(let resolvedBy):
            CollectionFailure.afterResolution(
                call(), resolvedBy: resolvedBy, file: file, line: line)
        case .notContributed: CollectionFailure.notContributed(call())
        }
    }

    /// Hands over contributions of `@MainActor` keys, which the ``AutoRegistering`` hook
    /// cannot name: it is not isolated to the main actor, and a keypath to a main-actor
    /// property can only be made there.
    ///
    /// ```swift
    /// extension Injections {
    ///     @MainActor var privacySection: any SettingsSection { shared(PrivacySection()) }
    ///     public static func contributePrivacyFeature() {
    ///         container.contributeOnMainActor {
    ///             $0.contribute(\.privacySection, to: \.settingsSections)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Call it from the hook, like ``contribute(_:to:file:line:)``. `contribute` runs on the
    /// main actor before the first collection is assembled there, once per run of the hook;
    /// its contributions follow, in each collection, those the hook made itself. Resolve the
    /// collections it contributes to on the main actor (a `@MainActor` collection key is
    /// resolved nowhere else): a collection assembled on another thread before `contribute`
    /// has run stops the process when `contribute` then adds to it, naming both.
    ///
    /// - Parameters:
    ///   - file: Where the call is, for messages; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - contribute: Makes the contributions, with `contribute(_:to:)` on the value it is
    ///     passed.
    public func contributeOnMainActor(
        file: StaticString = #fileID, line: UInt = #line,
        _ contribute: @escaping @MainActor @Sendable (Injections) -> Void
    ) {
        let call = "contributeOnMainActor { ... } at \(file):\(line)"
        Sealing.refuseIfSealed(call)
        AutoRegistration.ensure()
        guard AutoRegistration.isRunningHook else {
            return CollectionFailure.outsideHook(call, file: file, line: line)
        }
        ContributionTable.shared.addMainActorContributor(contribute)
    }
}
