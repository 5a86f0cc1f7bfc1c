import Testing

/// Every suite that registers overrides or resets scopes of the one process-wide container is
/// nested here and runs serialized, so that one test's overrides never leak into another's.
/// Suites that run in parallel use their own `withOverrides` layers; a layer still falls back
/// to the global overrides and caches, so they resolve keys these suites never override.
@Suite(.serialized) struct GlobalContainerTests {}
