// A test's changes to a collection key, in its own layer: add an element, or remove one. To
// replace an element, override the element's own key (`register(\.consoleSink) { ... }`);
// to replace the whole collection, override the collection key (`register(\.sinks) { [...] }`).
extension Injections.LocalOverrides {
    /// Adds an element to an array collection key in this layer, after those in effect.
    ///
    /// ```swift
    /// @Test(.injections { $0.contribute(\.recordingSink, to: \.analyticsSinks) })
    /// func everyEventReachesTheRecorder() { ... }
    /// ```
    ///
    /// The collection keeps its registration's scope in the layer, and its elements theirs.
    /// An element already in the collection stops the process with a message naming it.
    ///
    /// - Parameters:
    ///   - element: The element's own key.
    ///   - collection: The collection key.
    ///   - file: Where the call is, for messages; leave the default.
    ///   - line: The line of the call, likewise.
    public func contribute<Element>(
        _ element: KeyPath<Injections, Element>,
        to collection: KeyPath<Injections, Contributions<Element>>,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        let site = "\(file):\(line)"
        LayerEdits.edit(
            collection,
            with: .add(Contribution(element: element, dictionaryKey: nil, site: site)),
            in: registry,
            call: "contribute(\(KeyNames.describe(element)), to: \(KeyNames.describe(collection))) "
                + "at \(site)")
    }

    /// Adds an element to a dictionary collection key in this layer, under `key`.
    ///
    /// A `key` that already has an element stops the process with a message naming both; to
    /// replace that element, override its own key, or remove it first with
    /// ``removeContribution(forKey:from:file:line:)``.
    ///
    /// - Parameters:
    ///   - element: The element's own key.
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
        LayerEdits.edit(
            collection,
            with: .add(Contribution(element: element, dictionaryKey: AnyHashable(key), site: site)),
            in: registry,
            call: "contribute(\(KeyNames.describe(element)), to: \(KeyNames.describe(collection)), "
                + "forKey: \(key)) at \(site)")
    }

    /// Removes an element from an array or dictionary collection key in this layer.
    ///
    /// ```swift
    /// @Test(.injections { $0.removeContribution(\.crashSink, from: \.analyticsSinks) })
    /// func startsWithoutCrashReporting() { ... }
    /// ```
    ///
    /// An element not in the collection stops the process with a message naming it.
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
        LayerEdits.edit(
            collection, with: .removeElement(element), in: registry,
            call: "removeContribution(\(KeyNames.describe(element)), from: "
                + "\(KeyNames.describe(collection))) at \(file):\(line)")
    }

    /// Removes the element filed under `key` from a dictionary collection key in this layer.
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
        LayerEdits.edit(
            collection, with: .removeKey(AnyHashable(key)), in: registry,
            call: "removeContribution(forKey: \(key), from: \(KeyNames.describe(collection))) "
                + "at \(file):\(line)")
    }
}
