import DemoKit
import Foundation
import InjectableKit
import Testing

// Every tour runs in a child process (an exit test): the tour registers overrides on the
// process-wide container and calls `Injections.Scope.resetAll()`. Run in this process, it would
// race the other targets' suites, which `swift test` runs in parallel with this one, and they
// would race it (their `Injections.container.reset()` drops its mocks). The tour prints the same
// lines on every run (`tourIsShortAndTheSameOnEveryRun` checks it), so the tests that read its
// lines share one run for each `mocks` value (`TourRuns`).
// The tests that run the tour in this process need iOS 18 and macOS 15, as the tour does.
@Suite struct TourTests {
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func liveTourShowsLiveScreensFirstThenMocks() async throws {
        let lines = try await tourOutput(mocks: false)
        let first = section(1, of: lines)
        #expect(first.first == "1. Screens on live services")
        #expect(first.contains { $0.hasSuffix("#42 Savings              12,000.00 EUR") })
        #expect(first.contains { $0.contains("Ada Lovelace <ada@bank.example>, premium plan") })
        #expect(!first.contains { $0.contains("Mock") })

        let second = section(2, of: lines)
        #expect(second.first == "2. The same screens on mocks")
        #expect(second.contains { $0.contains("#42 Mock savings") })
        #expect(second.contains { $0.contains("Mock User <mock@example.com>, free plan") })
        #expect(!second.contains { $0.contains("Ada Lovelace") })
        #expect(second.last == "   pop() restores the saved overrides: live services again.")
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func mocksTourShowsMockScreensFirstThenLiveOnes() async throws {
        let lines = try await tourOutput(mocks: true)
        let first = section(1, of: lines)
        #expect(first.first == "1. Screens on mocks")
        #expect(first.contains { $0.contains("#42 Mock savings") })
        #expect(first.contains { $0.contains("Mock User <mock@example.com>, free plan") })
        #expect(!first.contains { $0.contains("Ada Lovelace") })

        let second = section(2, of: lines)
        #expect(second.first == "2. The same screens on live services")
        #expect(second.contains { $0.contains("Ada Lovelace <ada@bank.example>") })
        #expect(second.last == "   pop() restores the saved overrides: mocks again.")
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func mocksReachTheAccountDetailThroughConstructorInjection() async throws {
        let detail = section(5, of: try await tourOutput(mocks: true))
        #expect(detail.contains("   Account #42 Mock savings"))
        #expect(!detail.contains { $0.contains("Interest") })
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [false, true])
    func sharedViewModelIsReleasedWithItsLastScreen(mocks: Bool) async throws {
        let shared = section(3, of: try await tourOutput(mocks: mocks))
        #expect(shared.contains("   Two open accounts screens share one view model: yes"))
        #expect(shared.contains("   Both closed: a weak reference to it is nil: yes"))
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [false, true])
    func currentUserIsRegisteredAtLoginAndNilAfterLogout(mocks: Bool) async throws {
        let lines = try await tourOutput(mocks: mocks)
        let user = mocks ? "Mock User" : "Ada Lovelace"
        let login = section(4, of: lines)
        #expect(login.contains("   Before login: currentUser = nil"))
        #expect(login.contains("   After login: currentUser = \(user), in a new session"))
        #expect(section(6, of: lines).contains("   After logout: currentUser = nil"))
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [false, true])
    func argumentRegistrationIsCachedPerValue(mocks: Bool) async throws {
        let arguments = section(5, of: try await tourOutput(mocks: mocks))
        #expect(arguments.contains("   \\.[account: 42] twice: the same instance: yes"))
        #expect(arguments.contains("   \\.[account: 43]: another instance: yes"))
        #expect(arguments.contains("   The session has viewed: #42, #43"))
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [false, true])
    func sessionScopeGivesANewSessionAfterLogout(mocks: Bool) async throws {
        let session = section(6, of: try await tourOutput(mocks: mocks))
        #expect(session.contains("   Same session until logout: yes"))
        #expect(session.contains("   After logout: a new session: yes"))
        #expect(session.contains("   The new session has viewed: nothing"))
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theTerminalViewRendersAgainOnEachChangeOfItsViewModel() async throws {
        let view = section(7, of: try await tourOutput(mocks: false))
        #expect(
            Array(view.dropFirst(2)) == [
                "   [Transfer] 0.00 EUR = –   (ready)",
                "   [Transfer] 125.00 EUR = –   (entered)",
                "   [Transfer] 125.00 EUR = –   (quoting…)",
                "   [Transfer] 125.00 EUR = 135.00 USD   (quoted)",
                "   [Transfer] 125.00 EUR = 135.00 USD   (sent)",
            ])
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [false, true])
    func applicationInstanceSurvivesResetAllButCachedOneDoesNot(mocks: Bool) async throws {
        let reset = section(8, of: try await tourOutput(mocks: mocks))
        #expect(reset.contains("   \\.appConfiguration (application): the same instance: yes"))
        #expect(reset.contains("   \\.[account: 42] (cached): a new instance: yes"))
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [false, true])
    func everyClaimTheTourChecksHolds(mocks: Bool) async throws {
        let lines = try await tourOutput(mocks: mocks)
        #expect(lines.filter { $0.hasSuffix(": NO") } == [])
        #expect(lines.filter { $0.hasSuffix(": yes") }.count == 10)
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [false, true])
    func tourIsShortAndTheSameOnEveryRun(mocks: Bool) async throws {
        let first = try await tourOutput(mocks: mocks)
        #expect(try await runTour(mocks: mocks) == first)
        #expect((80...110).contains(first.count))
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func tourLeavesTheContainerAsItFoundIt() async {
        await #expect(processExitsWith: .success) {
            for mocks in [false, true] {
                var printed: [String] = []
                await Tour.run(mocks: mocks) { printed.append($0) }
                // A second run in the same process tells the same story.
                #expect(await Tour.lines(mocks: mocks) == printed)
                #expect(Injections.container.resolve(\.api) is LiveBankAPI)
                #expect(Injections.container.resolve(\.currentUser) == nil)
                #expect(Injections.container.resolve(\.userSession).viewedAccounts == [])
            }
        }
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func tourKeepsOverridesThatWereRegisteredBeforeIt() async {
        await #expect(processExitsWith: .success) {
            Injections.registerMockServices()
            Login.logIn(as: SignedInUser(name: "Grace Hopper"))
            let lines = await Tour.lines(mocks: false)
            #expect(Injections.container.resolve(\.api) is MockBankAPI)
            #expect(Injections.container.resolve(\.currentUser)?.name == "Grace Hopper")
            // The tour's "live services" are then the mocks registered before it.
            #expect(section(1, of: lines).contains { $0.contains("Mock savings") })
        }
    }

    @Test func theMocksLaunchArgumentMakesTheRegistrationPickTheMocks() throws {
        let lines = try demoOutput(["--mocks"])
        let first = section(1, of: lines)
        #expect(first.first == "1. Screens on mocks")
        #expect(first.contains { $0.contains(#"when(.argument("--mocks"))"#) })
        #expect(first.contains { $0.contains("#42 Mock savings") })
        #expect(section(2, of: lines).contains { $0.contains("Ada Lovelace") })
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theTourRunsTwoTestsAtOnceEachSeeingOnlyItsOwnMock() async throws {
        let steps = section(9, of: try await tourOutput(mocks: false))
        #expect(steps.first == "9. Two tests at once, each in its own layer")
        #expect(steps.contains("   The test that registered Alice sees Alice"))
        #expect(steps.contains("   The test that registered Bob sees Bob"))
        #expect(steps.contains("   Outside both layers: Ada Lovelace"))
    }

    // The tour finds the package's test runner beside the Demo only where it is an executable
    // file: on Linux (on Darwin it is a bundle, and the step says it skipped).
    #if os(Linux)
        @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
        @Test func theTourShowsTheReportOfATestThatRegistersOutsideItsLayer() async throws {
            let steps = section(9, of: try await tourOutput(mocks: false))
            #expect(
                steps.contains {
                    $0.contains("InjectableKit: register(") && $0.contains("TourLeakingTest.swift:")
                        && $0.contains("changed the global overrides")
                }, "\(steps)")
            #expect(steps.contains("   That test failed; the run's other tests go on and report."))
        }
    #endif

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theTourShowsTheTraceVerifyACycleAndSeal() async throws {
        let lines = try await tourOutput(mocks: false)
        let trace = section(10, of: lines)
        #expect(trace.first == "10. The trace of one screen")
        #expect(trace.contains { $0.hasSuffix(#"\.accountsService (unique) built"#) })
        #expect(trace.last == #"   \.accountsViewModel (shared) built"#)

        let verify = section(11, of: lines)
        #expect(verify.contains("   InjectableKit verified 3 keys: 2 problems"))
        #expect(
            verify.contains {
                $0.hasPrefix(#"   - \.plantedLedger: InjectableKit: dependency cycle"#)
            })
        #expect(verify.contains { $0.hasSuffix("resolved to nil, but it must be set") })

        let cycle = section(12, of: lines)
        #expect(cycle.first == "12. A cycle stops the process, naming its chain")
        #expect(
            cycle.contains {
                $0.hasPrefix(
                    #"   InjectableKit: dependency cycle: \.plantedLedger -> \.plantedAudit -> \.plantedLedger"#
                )
            })
        #expect(cycle.last == "   The child process stopped there; the tour goes on.")

        let seal = section(13, of: lines)
        #expect(seal.first == "13. seal(): nothing can be swapped after it")
        #expect(seal.contains { $0.hasPrefix(#"   InjectableKit: register(\.api) at DemoKit/"#) })
        #expect(seal.contains { $0.hasSuffix("so no dependency can be swapped.") })
        #expect(seal.last == "   The child process stopped there; the tour goes on.")
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theTourListsACollectionWithElementsFromTwoFeatureModules() async throws {
        let step = section(14, of: try await tourOutput(mocks: false))
        #expect(step.first == "14. A collection that feature modules contribute to")
        #expect(
            Array(step.dropFirst(2).prefix(3)) == [
                "   Send money (from Transfers)",
                "   Standing orders (from Transfers)",
                "   Download statement (from Statements)",
            ])
        #expect(
            step.contains(
                "   In the layer: Send money (test double), Standing orders, Download statement"))
    }

    @Test func theGraphOptionPrintsTheDemosDependencyGraphInMermaid() throws {
        let lines = try demoOutput(["--graph"])
        #expect(lines.first?.hasPrefix("%% InjectableKit demo: the dependency graph") == true)
        #expect(lines.dropFirst().first == "graph TD")
        #expect(lines.contains(#"    api["\.api (cached)"]"#))
        #expect(lines.contains("    accountsViewModel --> accountsService"))
        #expect(lines.contains("    accountsService --> api"))
    }
}

extension TourTests {
    @Test func theDotOptionPrintsTheSameGraphForGraphviz() throws {
        let lines = try demoOutput(["--graph=dot"])
        #expect(lines.first?.hasPrefix("// InjectableKit demo: the dependency graph") == true)
        #expect(lines.dropFirst().first?.hasPrefix("digraph") == true)
        #expect(lines.contains { $0.contains("accountsService") && $0.contains("->") })
    }
}

/// Runs the built `Demo` executable, which sits beside the test runner in the build folder.
private func demoOutput(_ arguments: [String]) throws -> [String] {
    let executable = try #require(Tour.demoExecutable())
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// The lines the tour prints, from the suite's one run of it for `mocks` (see `TourRuns`).
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
private func tourOutput(
    mocks: Bool, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [String] {
    let (run, startedHere) = await TourRuns.shared.run(mocks: mocks)
    do {
        return try await run.value
    } catch {
        // The test that started the run has the child process's failure; the others fail too.
        if !startedHere {
            Issue.record(
                "The tour's run (mocks: \(mocks)) failed: see the test that started it",
                sourceLocation: sourceLocation)
        }
        throw error
    }
}

/// One run of the tour for each `mocks` value, started by the first test that asks for it.
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
private actor TourRuns {
    static let shared = TourRuns()
    private var runs: [Bool: Task<[String], any Error>] = [:]

    /// - Returns: The run, and whether this call started it.
    func run(mocks: Bool) -> (Task<[String], any Error>, startedHere: Bool) {
        if let run = runs[mocks] { return (run, false) }
        // Not detached: the task keeps the asking test's context, which the exit test needs.
        let run = Task { try await runTour(mocks: mocks) }
        runs[mocks] = run
        return (run, true)
    }
}

/// Runs the tour in a child process, as `swift run Demo` would, and returns the lines it printed.
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
private func runTour(
    mocks: Bool, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [String] {
    let result = try await #require(
        processExitsWith: .success, observing: [\.standardOutputContent],
        sourceLocation: sourceLocation
    ) { [mocks] in
        await Tour.run(mocks: mocks) { print($0) }
    }
    var lines = String(decoding: result.standardOutputContent, as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }  // after the last line break
    return lines
}

/// The lines of section `number`, from its title to the line before the next blank one.
private func section(_ number: Int, of lines: [String]) -> [String] {
    guard let start = lines.firstIndex(where: { $0.hasPrefix("\(number). ") }) else { return [] }
    let end = lines[start...].firstIndex(of: "") ?? lines.endIndex
    return Array(lines[start..<end])
}
