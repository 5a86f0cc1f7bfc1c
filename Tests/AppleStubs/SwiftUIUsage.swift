// The documentation's SwiftUI example, type-checked by run.sh as part of the library against
// the SwiftUI stand-in: a main-actor view model, resolved by a view through
// `@InjectableObject` and read in its body.
import Observation
import SwiftUI

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
private final class ContentViewModel {
    var title = "Hello"
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Injections {
    @MainActor fileprivate var contentViewModel: ContentViewModel { shared(ContentViewModel()) }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
private struct ContentView: View {
    @InjectableObject(\.contentViewModel) var viewModel

    var body: some View {
        Text(viewModel.title)
    }
}
