import Testing

/// Every suite that registers overrides or resets scopes of the one process-wide container is
/// nested here and runs serialized, so that one test's overrides never leak into another's.
/// (Task-local overrides, which make this unnecessary, are a later feature.)
@Suite(.serialized) struct GlobalContainerTests {}
