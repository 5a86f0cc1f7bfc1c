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
        if token == OverrideLifetimes.probeToken { OverrideLifetimes.reached(nil) }
        let contributed = Self.assemble(
            collection, name: "\\.\(function)", minimumCount: minimumCount)
        return Contributions(
            contributed.map {
                resolve(
                    unsafeDowncast($0.element, to: KeyPath<Injections, Element>.self),
                    caller: function)
            }, contributions: contributed)
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
        if token == OverrideLifetimes.probeToken { OverrideLifetimes.reached(nil) }
        var elements: [Key: Element] = [:]
        var contributions: [Key: Contribution] = [:]
        for contribution in Self.assemble(
            collection, name: "\\.\(function)", minimumCount: minimumCount)
        {
            let key = contribution.dictionaryKey?.base as! Key
            elements[key] = resolve(
                unsafeDowncast(contribution.element, to: KeyPath<Injections, Element>.self),
                caller: function)
            contributions[key] = contribution
        }
        return KeyedContributions(elements, contributions: contributions)
    }

    /// The contributions made to `collection`, those a layer's edits add or remove aside (its
    /// override applies them to this collection, see `LayerEdits`). Marks the collection
    /// resolved.
    private static func assemble(
        _ collection: AnyKeyPath, name: String, minimumCount: Int
    ) -> [Contribution] {
        AutoRegistration.ensure()
        // The key being resolved, if this runs in its resolution, must be the collection named.
        if let frame = ThreadState.current.frames.last, frame.keyPath != collection {
            CollectionFailure.otherKey(
                KeyNames.name(of: collection) ?? "a collection key", in: Failure.name(of: frame))
        }
        let assembled = AssembledContributions(
            ContributionTable.shared.resolve(collection, name: name))
        if let (first, second) = assembled.duplicates.first {
            CollectionFailure.duplicate(first, second, in: name)
        }
        if assembled.elements.count < minimumCount {
            CollectionFailure.tooFew(assembled.elements.count, minimumCount, in: name)
        }
        return assembled.elements
    }
}
