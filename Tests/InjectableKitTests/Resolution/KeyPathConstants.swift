import InjectableKit

// A key's keypath written once, in a file other than the one that resolves the key by literal,
// as an app writes it (Performance.md, "Launch"): its own keypath object. `LevelLeaf` and
// `LevelParent` are ChangePropagationTests'.
extension Injections {
    static let constantAPIKey = \Injections.constantAPI
    var constantFeed: LevelParent { cached(LevelParent(resolve(Self.constantAPIKey))) }
}
