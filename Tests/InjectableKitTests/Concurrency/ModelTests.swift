import Foundation
import InjectableKit
import TestSupport
import Testing

// A model-based test: seeded random sequences of operations, run against the container and
// against `ContainerModel`, a small, obviously correct description of what the container
// promises. Every resolution's result must agree. A failure prints the seed; set
// INJECTABLEKIT_MODEL_SEED to replay that one sequence. Each run draws new seeds: 50
// sequences by default, 3,000 with INJECTABLEKIT_STRESS=full.

/// The instances the model test resolves: told apart by serial number (not by address, which
/// a new object may reuse).
final class ModelValue: Sendable {
    let label: String
    let serial: Int

    private static let serials = TestAtomic<Int>(0)

    init(_ label: String) {
        self.label = label
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

extension Injections.Scope {
    static let modelSession = Injections.Scope.cached("modelSession")
}

extension Injections {
    var modelUnique: ModelValue { ModelValue("live modelUnique") }
    var modelShared: ModelValue { shared(ModelValue("live modelShared")) }
    var modelCached: ModelValue { cached(ModelValue("live modelCached")) }
    var modelSession: ModelValue { scoped(.modelSession, ModelValue("live modelSession")) }
    var modelApplication: ModelValue { application(ModelValue("live modelApplication")) }
}

/// The keys under test, and the scope each one's registration uses.
enum ModelKey: Int, CaseIterable, CustomStringConvertible {
    case unique, shared, cached, session, application

    var keyPath: KeyPath<Injections, ModelValue> {
        switch self {
        case .unique: \.modelUnique
        case .shared: \.modelShared
        case .cached: \.modelCached
        case .session: \.modelSession
        case .application: \.modelApplication
        }
    }

    var scope: Injections.Scope? {
        switch self {
        case .unique: nil
        case .shared: .shared
        case .cached: .cached
        case .session: .modelSession
        case .application: .application
        }
    }

    /// The key's name: `modelUnique`, `modelShared`, ...
    var name: String {
        switch self {
        case .unique: "modelUnique"
        case .shared: "modelShared"
        case .cached: "modelCached"
        case .session: "modelSession"
        case .application: "modelApplication"
        }
    }

    var description: String { "\\.\(name)" }
}

enum ModelOperation: CustomStringConvertible {
    case resolve(ModelKey, hold: Bool)
    case registerKey(ModelKey, Int)
    case registerType(Int)
    case resetKey(ModelKey)
    case resetType
    case resetAll
    case push
    case pop
    case resetScope(ModelKey)
    case dropHeld

    var description: String {
        switch self {
        case .resolve(let key, let hold): "resolve(\(key))\(hold ? " and hold it" : "")"
        case .registerKey(let key, let n): "register(\(key)) { #\(n) }"
        case .registerType(let n): "register { #\(n) as ModelValue }"
        case .resetKey(let key): "reset(\(key))"
        case .resetType: "reset(ModelValue.self)"
        case .resetAll: "reset()"
        case .push: "push()"
        case .pop: "pop()"
        case .resetScope(let key): "\(key.scope.map(\.description) ?? "none").reset()"
        case .dropHeld: "drop every held instance"
        }
    }

    static func random(using generator: inout SplitMix64) -> ModelOperation {
        let key = ModelKey(rawValue: Int(generator.next() % 5))!
        let n = Int(generator.next() % 1000)
        switch generator.next() % 20 {
        case 0..<8: return .resolve(key, hold: generator.next() % 2 == 0)
        case 8, 9: return .registerKey(key, n)
        case 10: return .registerType(n)
        case 11: return .resetKey(key)
        case 12: return .resetType
        case 13: return .resetAll
        case 14: return .push
        case 15: return .pop
        case 16, 17: return .resetScope(key)
        default: return .dropHeld
        }
    }
}

/// What the container promises, written as plainly as possible.
struct ContainerModel {
    /// The overrides in effect, each named by the number of its registration.
    struct Overrides: Equatable {
        var byKey: [ModelKey: Int] = [:]
        var byType: Int?
    }

    var overrides = Overrides()
    var saved: [Overrides] = []
    /// Each registration's label, by its number.
    var labels: [Int: String] = [:]
    /// The instance each scoped key holds (for `shared`: held weakly), and the registration
    /// that built it (`nil`: the key's own). An override keeps its key's lifetime.
    var cache: [ModelKey: (registration: Int?, serial: Int)] = [:]
    /// Serials the test holds strongly (keeping `shared` instances alive).
    var held: Set<Int> = []

    /// The override that serves `key`, if any.
    func registration(for key: ModelKey) -> Int? { overrides.byKey[key] ?? overrides.byType }

    /// What resolving `key` must give: the label, and the serial when it must be an instance
    /// seen before (`nil`: a new one).
    func expectation(for key: ModelKey) -> (label: String, serial: Int?) {
        let registration = registration(for: key)
        let label = registration.flatMap { labels[$0] } ?? "live \(key.name)"
        guard key.scope != nil, let cached = cache[key], cached.registration == registration
        else { return (label, nil) }
        if key == .shared && !held.contains(cached.serial) { return (label, nil) }
        return (label, cached.serial)
    }

    mutating func resolved(_ key: ModelKey, serial: Int, hold: Bool) {
        if key.scope != nil { cache[key] = (registration(for: key), serial) }
        if hold { held.insert(serial) }
    }

    mutating func change(_ update: (inout Overrides) -> Void) {
        let before = overrides
        update(&overrides)
        // Every key is of type ModelValue, so a type override's change affects them all.
        let typeChanged = before.byType != overrides.byType
        for key in ModelKey.allCases where typeChanged || before.byKey[key] != overrides.byKey[key]
        {
            cache[key] = nil
        }
    }

    mutating func resetScope(of key: ModelKey) {
        guard let scope = key.scope else { return }
        for other in ModelKey.allCases where other.scope === scope { cache[other] = nil }
    }
}

/// A small, fast, seedable generator (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension GlobalContainerTests {
    @Suite struct ModelTests {
        /// Runs one sequence; returns a description of the first disagreement, if any.
        static func run(seed: UInt64, length: Int) -> String? {
            var generator = SplitMix64(state: seed)
            var model = ContainerModel()
            var held: [ModelValue] = []
            var log: [String] = []
            let container = Injections.container
            container.reset()
            for key in ModelKey.allCases { key.scope?.reset() }
            defer {
                container.reset()
                for key in ModelKey.allCases { key.scope?.reset() }
            }
            for _ in 0..<length {
                let operation = ModelOperation.random(using: &generator)
                log.append(operation.description)
                switch operation {
                case .resolve(let key, let hold):
                    let expected = model.expectation(for: key)
                    let value = container.resolve(key.keyPath)
                    let sameAsExpected = expected.serial.map { $0 == value.serial }
                    if value.label != expected.label || sameAsExpected == false
                        || (expected.serial == nil
                            && model.cache.values.contains { $0.serial == value.serial }
                            && model.held.contains(value.serial))
                    {
                        return """
                            seed \(seed): \(log.joined(separator: "; ")) gave \
                            "\(value.label)" #\(value.serial), expected "\(expected.label)" \
                            \(expected.serial.map { "#\($0)" } ?? "(a new instance)")
                            """
                    }
                    model.resolved(key, serial: value.serial, hold: hold)
                    if hold { held.append(value) }
                case .registerKey(let key, let n):
                    container.register(key.keyPath) { ModelValue("key #\(n)") }
                    let registration = model.labels.count
                    model.labels[registration] = "key #\(n)"
                    model.change { $0.byKey[key] = registration }
                case .registerType(let n):
                    container.register { ModelValue("type #\(n)") }
                    let registration = model.labels.count
                    model.labels[registration] = "type #\(n)"
                    model.change { $0.byType = registration }
                case .resetKey(let key):
                    container.reset(key.keyPath)
                    model.change { $0.byKey[key] = nil }
                    model.cache[key] = nil
                case .resetType:
                    container.reset(ModelValue.self)
                    model.change { $0.byType = nil }
                case .resetAll:
                    container.reset()
                    model.change { $0 = ContainerModel.Overrides() }
                case .push:
                    container.push()
                    model.saved.append(model.overrides)
                case .pop:
                    container.pop()
                    if let previous = model.saved.popLast() { model.change { $0 = previous } }
                case .resetScope(let key):
                    key.scope?.reset()
                    model.resetScope(of: key)
                case .dropHeld:
                    held.removeAll()
                    model.held.removeAll()
                }
            }
            // Balance the pushes, so that the next sequence starts from an empty stack.
            for _ in model.saved { container.pop() }
            return nil
        }

        @Test func randomSequencesAgreeWithTheModel() {
            if let replay = ProcessInfo.processInfo.environment["INJECTABLEKIT_MODEL_SEED"],
                let seed = UInt64(replay)
            {
                let failure = Self.run(seed: seed, length: 40)
                #expect(failure == nil, "\(failure ?? "")")
                return
            }
            var seeds = SplitMix64(state: UInt64(Date().timeIntervalSince1970))
            for _ in 0..<stressSize(quick: 50, full: 3_000) {
                let seed = seeds.next()
                if let failure = Self.run(seed: seed, length: 40) {
                    Issue.record(
                        "\(failure)\nReplay: INJECTABLEKIT_MODEL_SEED=\(seed) swift test --filter ModelTests"
                    )
                    return
                }
            }
        }
    }
}
