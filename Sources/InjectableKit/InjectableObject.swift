import Observation

/// Injects an observable view model, keeps it for its owner's lifetime, and reports its
/// changes.
///
/// ```swift
/// @MainActor @Observable final class ContentViewModel { var title = "" }
/// extension Injections {
///     @MainActor var contentViewModel: ContentViewModel { shared(ContentViewModel()) }
/// }
///
/// @MainActor struct ContentScreen {
///     @InjectableObject(\.contentViewModel) var viewModel
///
///     func run() async {
///         for await title in $viewModel.changes(of: { $0.title }) {
///             print("Title: \(title)")
///         }
///     }
/// }
/// ```
///
/// The object is resolved once, when the owner is initialised, and held strongly, so a
/// `shared` view model lives exactly as long as the screens that show it. The projected value
/// (`$viewModel`) offers ``changes(of:)``, built on `withObservationTracking`, for code outside
/// SwiftUI (a terminal view, a UIKit controller, a test). On Apple platforms the wrapper is also
/// a SwiftUI `DynamicProperty`; a view's body tracks the object's properties it reads.
///
/// It needs Observation: iOS 17, macOS 14, tvOS 17, watchOS 10 (``changes(of:)``, iOS 18 and
/// macOS 15).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@propertyWrapper
public struct InjectableObject<Object: AnyObject & Observable> {
    /// The view model.
    public let wrappedValue: Object

    /// The wrapper itself, for ``changes(of:)``: `$viewModel.changes { $0.title }`.
    public var projectedValue: Self { self }

    /// Resolves the view model now.
    ///
    /// - Parameters:
    ///   - keyPath: The registration, for example `\.contentViewModel`.
    ///   - fileID: The declaration's file; leave the default. A mistake the resolution makes in
    ///     a test (a `liveOnly` key reached) fails the test here.
    ///   - line: The declaration's line; leave the default.
    @inlinable
    public init(
        _ keyPath: KeyPath<Injections, Object>, fileID: StaticString = #fileID, line: UInt = #line
    ) {
        wrappedValue = Resolver.resolve(keyPath, token: 0, caller: nil, fileID: fileID, line: line)
    }

    /// The values `read` derives from the object: now, and again after each change to the
    /// observable properties it reads.
    ///
    /// ```swift
    /// for await count in $viewModel.changes(of: { $0.items.count }) {
    ///     render(count)
    /// }
    /// ```
    ///
    /// Iterate it from the object's isolation (the main actor for a `@MainActor` view model):
    /// `read` runs there, on each iteration. Changes made before the loop reads again (while
    /// its body runs, or before its task gets to run) are coalesced into one more value. The
    /// sequence ends when the iterating task is cancelled.
    ///
    /// It needs iOS 18, macOS 15, tvOS 18, watchOS 11 or visionOS 2: there, `for await` runs
    /// the sequence on the caller's actor.
    ///
    /// - Parameter read: Reads the properties to watch, and returns what the loop needs.
    /// - Returns: An asynchronous sequence of what `read` returned.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    public func changes<Value>(of read: @escaping (Object) -> Value) -> ObservedChanges<
        Object, Value
    > {
        ObservedChanges(object: wrappedValue, read: read)
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension InjectableObject: Sendable where Object: Sendable {}
