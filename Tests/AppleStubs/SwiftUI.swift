// A stand-in for Apple's SwiftUI module, so that CI type-checks the library's SwiftUI code on
// Linux (see run.sh). Never shipped. It declares only what the library uses, with the
// signatures and availability of Apple's documentation: the compiler checks the library's
// code against these shapes, and on Linux ignores the availability.

/// SwiftUI's `DynamicProperty`: a stored property of a view that SwiftUI updates before it
/// computes the view's body.
///
/// Apple: `protocol DynamicProperty`, iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0 and
/// visionOS 1.0 (https://developer.apple.com/documentation/swiftui/dynamicproperty). Its
/// underscored requirements (`_makeProperty`, `_propertyBehaviors`) have default
/// implementations and are left out.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public protocol DynamicProperty {
    /// Updates the underlying value of the stored value; SwiftUI calls it before rendering a
    /// view's body.
    mutating func update()
}

@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension DynamicProperty {
    /// The default implementation, which does nothing.
    public mutating func update() {}
}

/// SwiftUI's `View`, for the usage example that run.sh type-checks (SwiftUIUsage.swift).
///
/// Apple: `@MainActor @preconcurrency protocol View`, iOS 13.0, macOS 10.15, tvOS 13.0,
/// watchOS 6.0 and visionOS 1.0 (https://developer.apple.com/documentation/swiftui/view).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View

    /// The content and behavior of the view.
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// SwiftUI's `ViewBuilder`, reduced to the one-view block.
///
/// Apple: `@resultBuilder struct ViewBuilder`, iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0
/// and visionOS 1.0 (https://developer.apple.com/documentation/swiftui/viewbuilder).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@resultBuilder
public struct ViewBuilder {
    /// Passes a single view written as a child view through unmodified.
    ///
    /// - Parameter content: The view.
    /// - Returns: `content`.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

/// SwiftUI's `Text`, reduced to its initializer from a string.
///
/// Apple: `@frozen struct Text: Equatable, Sendable`, iOS 13.0, macOS 10.15, tvOS 13.0,
/// watchOS 6.0 and visionOS 1.0 (https://developer.apple.com/documentation/swiftui/text).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@frozen
public struct Text: Equatable, Sendable {
    private let content: String

    /// Creates a text view that displays a string, without localizing it.
    ///
    /// - Parameter content: The string to display.
    public init<S: StringProtocol>(_ content: S) {
        self.content = String(content)
    }
}

@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension Text: View {
    /// A primitive view has no body (SwiftUI's own implementation is not public).
    public var body: Never { fatalError("stub") }
}

@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension Never: View {
    /// Never called.
    public var body: Never { fatalError("stub") }
}
