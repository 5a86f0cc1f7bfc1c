// SwiftUI support, on the platforms that have it. On Linux, CI type-checks this file against
// a stand-in SwiftUI module with Apple's declarations (Tests/AppleStubs/run.sh).
#if canImport(SwiftUI)
    import SwiftUI

    /// On Apple platforms, `@InjectableObject` is a SwiftUI `DynamicProperty`: a view's `body`
    /// reads the observable object through it and re-renders when what it read changes. It keeps
    /// no storage in the view graph, as `@State` does: the scope keeps the instance.
    ///
    /// ```swift
    /// struct ContentView: View {
    ///     @InjectableObject(\.contentViewModel) var viewModel
    ///     var body: some View { Text(viewModel.title) }
    /// }
    /// ```
    ///
    /// SwiftUI re-creates a view's value often, and each new value resolves the key again, so
    /// register view models for views with `shared`
    /// (or another caching scope): every value of the view then gets the same instance while
    /// the view is on screen.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    extension InjectableObject: DynamicProperty {}
#endif
