import InjectableKit

/// A guided tour of InjectableKit: a small banking app's screens on live services and on mocks,
/// and the lifetime of each scope.
///
/// ```swift
/// await Tour.run(mocks: false) { print($0) }
/// ```
///
/// The output is deterministic (no addresses, no times), so tests can compare it line by line.
///
/// > Important: The tour uses the process-wide container. It saves the override registry with
/// > `push()` and restores it with `pop()`, and resets the scopes it used, but it also calls
/// > `Injections.Scope.resetAll()`: do not run it alongside other code that relies on the
/// > shared, cached or custom scopes.
@MainActor
public enum Tour {
    /// Runs the tour and hands its lines to `output`.
    ///
    /// - Parameters:
    ///   - mocks: Whether to start on the mocks: registered with
    ///     ``Injections/registerMockServices()``, or, when the process was launched with
    ///     `--mocks`, picked by the registrations themselves; otherwise the tour starts on the
    ///     live services and shows the mocks second.
    ///   - output: Receives the tour's lines, one at a time, without line breaks.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    public static func run(mocks: Bool, output: (String) -> Void) async {
        for line in await lines(mocks: mocks) { output(line) }
    }

    /// Runs the tour and returns its lines.
    ///
    /// - Parameter mocks: Whether to start with the mocks registered.
    /// - Returns: The lines ``run(mocks:output:)`` prints, without line breaks.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    public static func lines(mocks: Bool) async -> [String] {
        Injections.container.push()
        defer {
            Login.logOut()
            Injections.container.pop()
            Injections.Scope.session.reset()
            Injections.Scope.cached.reset()
        }
        // Launched with --mocks, the registration itself picks the mock (a launch-argument
        // context); asked for mocks otherwise (by a test), the tour registers them.
        let mocksByArgument = Injections.Context.argument("--mocks").isActive
        if mocks && !mocksByArgument { Injections.registerMockServices() }
        var guide = Guide()
        let title = Injections.container.resolve(\.appConfiguration).title
        guide.say("InjectableKit tour: \(title), a banking app wired by keypaths")
        guide.say("Starting on \(mocks ? "mocks (--mocks)" : "live services (try --mocks)").")

        showScreens(mocks: mocks, byArgument: mocksByArgument, &guide)
        swapServices(mocks: mocks, byArgument: mocksByArgument, &guide)
        shareViewModel(&guide)
        logIn(&guide)
        openAccounts(&guide)
        logOut(&guide)
        await transferView(&guide)
        resetScopes(&guide)
        await parallelTests(&guide)
        traceScreen(&guide)
        verifyGraph(&guide)
        stoppingSteps(&guide)
        collectActions(&guide)

        guide.end("Done: the tour popped its overrides and reset the scopes it used.")
        return guide.lines
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    private static func showScreens(mocks: Bool, byArgument: Bool, _ guide: inout Guide) {
        if mocks {
            guide.section(
                "Screens on mocks",
                byArgument
                    ? "--mocks: \\.api's registration picks "
                        + "when(.argument(\"--mocks\")) { cached(MockBankAPI() as any BankAPI) }."
                    : "Injections.registerMockServices() registered MockBankAPI as any BankAPI.")
        } else {
            guide.section(
                "Screens on live services",
                "View models get services; services get \\.api by constructor injection.")
        }
        guide.show(AccountsScreen().render() + ProfileScreen().render())
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    private static func swapServices(mocks: Bool, byArgument: Bool, _ guide: inout Guide) {
        Injections.container.push()
        if mocks {
            guide.section(
                "The same screens on live services",
                "push(), then register(\\.api) { LiveBankAPI() }: an override wins over all else.")
            Injections.container.register(\.api) { LiveBankAPI() }
        } else {
            guide.section(
                "The same screens on mocks",
                "push(), then register { MockBankAPI() as any BankAPI }: it reaches every service.")
            Injections.registerMockServices()
        }
        guide.show(AccountsScreen().render() + ProfileScreen().render())
        Injections.container.pop()
        if byArgument {
            guide.say("pop() drops that override: \\.api's registration picks the mocks again.")
        } else {
            guide.say(
                "pop() restores the saved overrides: \(mocks ? "mocks" : "live services") again.")
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    private static func shareViewModel(_ guide: inout Guide) {
        guide.section(
            "shared: alive while a screen holds it",
            "var accountsViewModel: AccountsViewModel { shared(AccountsViewModel()) }")
        weak var released: AccountsViewModel?
        do {
            let first = AccountsScreen()
            let second = AccountsScreen()
            released = first.viewModel
            guide.check(
                "Two open accounts screens share one view model",
                first.viewModel === second.viewModel)
        }
        guide.check("Both closed: a weak reference to it is nil", released == nil)
    }

    private static func logIn(_ guide: inout Guide) {
        guide.section(
            "An optional key, registered at login",
            "var currentUser: (any UserProviding)? { nil } until register(\\.currentUser).")
        guide.say("Before login: currentUser = \(currentUserName)")
        let profile = Injections.container.resolve(\.profileService).profile()
        Login.logIn(as: SignedInUser(name: profile.name))
        let session = Injections.container.resolve(\.userSession)
        guide.say("After login: currentUser = \(currentUserName), in a new session")
        guide.check("The session belongs to the user", session.user?.name == profile.name)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    private static func openAccounts(_ guide: inout Guide) {
        guide.section(
            "A registration with arguments, cached per value",
            "subscript(account id: Int) { cached(...) }, resolved as \\.[account: 42].")
        let first = Injections.container.resolve(\.[account: 42])
        let again = Injections.container.resolve(\.[account: 42])
        let other = Injections.container.resolve(\.[account: 43])
        guide.check("\\.[account: 42] twice: the same instance", first === again)
        guide.check("\\.[account: 43]: another instance", other !== first)
        guide.show(AccountDetailScreen(id: 42).render())
        other.open()
        let viewed = Injections.container.resolve(\.userSession).viewedAccounts
        guide.say("The session has viewed: \(viewed.map { "#\($0)" }.joined(separator: ", "))")
    }

    private static func logOut(_ guide: inout Guide) {
        guide.section(
            "A custom session scope, ended at logout",
            "static let session = Injections.Scope.cached(\"session\"), reset by Login.logOut().")
        let session = Injections.container.resolve(\.userSession)
        guide.check(
            "Same session until logout",
            Injections.container.resolve(\.userSession) === session)
        Login.logOut()
        let next = Injections.container.resolve(\.userSession)
        guide.say("After logout: currentUser = \(currentUserName)")
        guide.check("After logout: a new session", next !== session)
        guide.say(
            "The new session has viewed: \(next.viewedAccounts.isEmpty ? "nothing" : "something")")
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    private static func transferView(_ guide: inout Guide) async {
        guide.section(
            "A terminal view that re-renders",
            "TransferView shows a @MainActor view model, and renders again on each change.")
        let view = TransferView()
        // The view runs on its own, as a UI would; the tour reads each line it renders.
        let (rendered, show) = AsyncStream.makeStream(of: String.self)
        let loop = Task {
            for await line in view.frames() { show.yield(line) }
        }
        var lines = rendered.makeAsyncIterator()
        guide.say(await lines.next() ?? "")
        view.viewModel.enter(cents: 12_500)
        guide.say(await lines.next() ?? "")
        // The tour takes quote() in its two halves, reading the frame after each, so that the
        // output does not depend on how fast the view catches up (it merges changes it has not
        // rendered yet). The second half awaits \.exchangeDesk, an actor built asynchronously.
        view.viewModel.beginQuote()
        guide.say(await lines.next() ?? "")
        await view.viewModel.finishQuote()
        guide.say(await lines.next() ?? "")
        view.viewModel.send()
        guide.say(await lines.next() ?? "")
        // Ending the view releases its view model (shared: held only by its screens).
        loop.cancel()
        await loop.value
    }

    private static func resetScopes(_ guide: inout Guide) {
        guide.section(
            "application: survives resetAll()",
            "Injections.Scope.resetAll() empties every scope except application.")
        let configuration = Injections.container.resolve(\.appConfiguration)
        let detail = Injections.container.resolve(\.[account: 42])
        Injections.Scope.resetAll()
        guide.check(
            "\\.appConfiguration (application): the same instance",
            Injections.container.resolve(\.appConfiguration) === configuration)
        guide.check(
            "\\.[account: 42] (cached): a new instance",
            Injections.container.resolve(\.[account: 42]) !== detail)
    }

    private static var currentUserName: String {
        Injections.container.resolve(\.currentUser)?.name ?? "nil"
    }
}

/// Numbers the tour's sections and indents what they show.
struct Guide {
    private(set) var lines: [String] = []
    private var section = 0

    mutating func section(_ title: String, _ explanation: String) {
        section += 1
        blank()
        lines.append("\(section). \(title)")
        say(explanation)
    }

    mutating func say(_ line: String) {
        lines.append(section == 0 ? line : "   " + line)
    }

    mutating func check(_ claim: String, _ holds: Bool) {
        say("\(claim): \(holds ? "yes" : "NO")")
    }

    mutating func show(_ lines: [String]) {
        for line in lines { say(line) }
    }

    mutating func blank() {
        lines.append("")
    }

    mutating func end(_ line: String) {
        lines += ["", line]
    }
}
