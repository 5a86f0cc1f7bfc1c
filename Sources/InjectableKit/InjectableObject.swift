import Observation

/// Injects an observable view model and keeps it for its owner's lifetime.
///
/// ```swift
/// @Observable final class ContentViewModel { var title = "" }
/// extension Injections {
///     var contentViewModel: ContentViewModel { shared(ContentViewModel()) }
/// }
/// struct ContentScreen {
///     @InjectableObject(\.contentViewModel) var viewModel
/// }
/// ```
///
/// The object is resolved once, when the owner is initialised, and held strongly, so a
/// `shared` view model lives exactly as long as the screens that show it.
@propertyWrapper
public struct InjectableObject<Object: AnyObject & Observable> {
    /// The view model.
    public let wrappedValue: Object

    /// Resolves the view model now.
    ///
    /// - Parameter keyPath: The registration, for example `\.contentViewModel`.
    @inlinable
    public init(_ keyPath: KeyPath<Injections, Object>) {
        wrappedValue = Resolver.resolve(keyPath, token: 0, caller: nil)
    }
}

extension InjectableObject: Sendable where Object: Sendable {}
