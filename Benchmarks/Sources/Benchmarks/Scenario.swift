/// What is measured: one row of the table. The raw values are the names in the CSV.
enum Scenario: String, CaseIterable, Sendable {
    /// A unique (new every time) registration resolved as a protocol existential.
    case unique
    /// A process-wide singleton, already built.
    case application
    /// A weakly held instance, resolved while something holds it.
    case shared
    /// An instance cached until its scope is reset, already built.
    case cached
    /// InjectableKit only: the `cached` key of `CallSiteKeys` resolved from a loop in
    /// `CallSitesA.swift`, the first of the `call-sites` sites to resolve it.
    case callSitesFileA = "call-sites (file A)"
    /// The same key resolved from `CallSitesB.swift`, another file of the same module.
    case callSitesFileB = "call-sites (file B)"
    /// The same key resolved from a second module, `CallSiteModule`.
    case callSitesModule2 = "call-sites (module 2)"
    /// The same key resolved from the module that declares it, `CallSiteKeys`.
    case callSitesKeysModule = "call-sites (key's module)"
    /// InjectableKit only: `cached` while a layer is kept (`makeOverrides`, as a preview keeps
    /// one), resolved outside it; direct code beside it reads the same singleton as `cached`.
    case cachedLayerKept = "cached (layer kept)"
    /// `cached` while another thread runs inside a `withOverrides` layer, resolved outside it.
    case cachedLayerInEffect = "cached (layer in effect)"
    /// A collection of two cached elements, cached itself, already built: InjectableKit's
    /// collection key, and a hand-written static array.
    case cachedCollection = "cached-collection"
    /// `A(B(C()))`, each link unique and resolved through the container.
    case chain
    /// Initialising an object with one injected property, then reading the property.
    case wrapper
    /// A singleton resolved while an override is registered for another key.
    case overrideOther = "override-other"
    /// A key resolved while an override (returning a prebuilt instance) is registered for it.
    case overrideSame = "override-same"
    /// Singleton resolution on one thread.
    case threads1 = "threads-1"
    /// Singleton resolution on two threads at once (wall time per operation per thread).
    case threads2 = "threads-2"
    /// Singleton resolution round-robin over 10 registrations, each resolved in turn from call
    /// sites in four files (see `registrationRoundRobin`).
    case registrations10 = "registrations-10"
    /// Singleton resolution round-robin over 1,000 registrations, from the same four files.
    case registrations1000 = "registrations-1000"
    /// Direct construction only: `registrations-10`'s singleton reads (from four files, in the
    /// same order), each also making and dropping its registration's keypath literal (its file's
    /// object), as a call site of a keypath-spelled API does.
    case keyPathLiteral10 = "keypath-literal-10"
    /// The same over 1,000 registrations. How much more the literals cost per key with 1,000 keys
    /// than with 10: (`keypath-literal-1000` − `keypath-literal-10`) − (`registrations-1000` −
    /// `registrations-10`), both direct.
    case keyPathLiteral1000 = "keypath-literal-1000"
    /// The first resolution of each of 1,000 singleton registrations in the process: what an
    /// app pays once per key at launch (keypaths, caches and lookups made for the first time).
    /// One pass, so one sample.
    case firstResolution = "first-resolution"
    /// Resetting the cached scope, then resolving a cached registration: construction included.
    case firstAfterReset = "first-after-reset"
    /// Resetting one argument value of a cached subscript key while 10 values are cached, then
    /// resolving it again (construction included). Direct code: a dictionary cache.
    case resetValueOf10 = "reset one value (10 held)"
    /// The same while 100,000 values are cached: the same cost as with 10 when a reset finds
    /// its value's entries directly.
    case resetValueOf100k = "reset one value (100,000 held)"
    /// A singleton resolved after the trace and graph recording were turned on, then off: the
    /// same as `application` when turning them off restores the fast path.
    case traceOff = "trace-off"
    /// A singleton resolved while the trace (to a closure that drops each event) is on.
    case traceOn = "trace-on"

    /// The `call-sites` rows, in the order their sites first resolve the key. They are measured
    /// together (see `Harness.measureTogether`), so that their figures compare.
    static let callSites: [Scenario] = [
        .callSitesFileA, .callSitesFileB, .callSitesModule2, .callSitesKeysModule,
    ]

    /// How many of the generated registrations a registration scenario uses.
    var registrationCount: Int {
        self == .registrations10 || self == .keyPathLiteral10 ? 10 : 1000
    }

    /// The order the scenarios run in. `first-after-reset` runs before the registration
    /// scenarios, so that a reset does not also pay for dropping their 1,000 instances (in
    /// swift-dependencies, whose cache reset drops every key's value). `first-resolution` runs
    /// before the other registration scenarios, which resolve the same keys. The `call-sites`
    /// rows run after `cached`, before any scenario registers an override or resets a scope.
    static let runOrder: [Scenario] = [
        .unique, .application, .shared, .cached, .callSitesFileA, .callSitesFileB,
        .callSitesModule2, .callSitesKeysModule, .cachedLayerKept, .cachedLayerInEffect,
        .cachedCollection, .firstAfterReset, .chain,
        .wrapper,
        .overrideOther, .overrideSame, .threads1, .threads2, .firstResolution, .registrations10,
        .registrations1000, .keyPathLiteral10, .keyPathLiteral1000, .resetValueOf10,
        .resetValueOf100k, .traceOff, .traceOn,
    ]

    /// How many argument values a `reset one value` scenario holds.
    var heldValues: Int { self == .resetValueOf10 ? 10 : 100_000 }
}

/// A column of the table. The raw values are the names in the CSV.
enum Library: String, CaseIterable, Sendable {
    case direct
    case injectableKit = "InjectableKit"
    case swinject = "Swinject"
    case swiftDependencies = "swift-dependencies"
}

/// One library's (or direct construction's) implementation of the scenarios.
protocol Suite {
    /// Measures `scenario`, returning the median nanoseconds per operation, or `nil` when the
    /// library cannot express it.
    func measure(_ scenario: Scenario, with harness: Harness) -> Double?
}
