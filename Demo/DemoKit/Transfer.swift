import InjectableKit
import Observation

/// The bank's currency desk: an actor, opened asynchronously once per process.
public actor ExchangeDesk {
    /// US cents per euro.
    private let usdCentsPerEuro: Int

    private init(usdCentsPerEuro: Int) {
        self.usdCentsPerEuro = usdCentsPerEuro
    }

    /// Connects to the desk: asynchronous, as fetching today's rate would be.
    ///
    /// - Returns: The open desk.
    public static func open() async -> ExchangeDesk {
        await Task.yield()
        return ExchangeDesk(usdCentsPerEuro: 108)
    }

    /// Converts euro cents to US cents.
    ///
    /// - Parameter euroCents: The amount in euro cents.
    /// - Returns: The amount in US cents.
    public func dollarCents(for euroCents: Int) -> Int {
        euroCents * usdCentsPerEuro / 100
    }
}

/// The transfer screen's state: main actor, as a UI's view models are.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class TransferViewModel {
    /// The amount to send, in euro cents.
    public private(set) var amountCents = 0
    /// The amount in US cents, once quoted.
    public private(set) var quoteCents: Int?
    /// Where the transfer stands.
    public private(set) var status = "ready"
    // An asynchronous dependency: the wrapper holds the key's AsyncInjection, awaited on use.
    @ObservationIgnored @Injectable(\.exchangeDesk) private var desk

    /// Makes the view model.
    public init() {}

    /// Sets the amount.
    ///
    /// - Parameter cents: The amount in euro cents.
    public func enter(cents: Int) {
        amountCents = cents
        quoteCents = nil
        status = "entered"
    }

    /// Shows that a quote is on its way; ``finishQuote()`` fetches it. (Two steps, so that a
    /// view can show the state in between.)
    public func beginQuote() {
        status = "quoting…"
    }

    /// Asks the desk for the amount in dollars.
    public func finishQuote() async {
        let cents = await desk.value().dollarCents(for: amountCents)
        quoteCents = cents
        status = "quoted"
    }

    /// Sends the transfer.
    public func send() {
        status = "sent"
    }
}

extension Injections {
    /// The currency desk, opened on first use and kept for the life of the process.
    public var exchangeDesk: AsyncInjection<ExchangeDesk, Never> {
        application(AsyncInjection { await ExchangeDesk.open() })
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Injections {
    /// The transfer screen's view model: main actor, alive while a screen holds it.
    @MainActor public var transferViewModel: TransferViewModel { shared(TransferViewModel()) }
}

/// A terminal "view" of the transfer screen: one line, rendered again each time a property it
/// shows changes, the way SwiftUI re-renders a view's body.
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
struct TransferView {
    @InjectableObject(\.transferViewModel) var viewModel

    /// The rendered line now, and again after each change.
    func frames() -> ObservedChanges<TransferViewModel, String> {
        $viewModel.changes(of: Self.render)
    }

    static func render(_ model: TransferViewModel) -> String {
        let quote = model.quoteCents.map { money($0, "USD") } ?? "–"
        return "[Transfer] \(euros(model.amountCents)) = \(quote)   (\(model.status))"
    }
}
