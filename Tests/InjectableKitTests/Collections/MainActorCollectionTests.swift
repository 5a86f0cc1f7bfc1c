import InjectableKit
import InjectableTesting
import Testing

/// A settings section: a main-actor type, as a view model is.
@MainActor protocol SettingsSection: AnyObject, Sendable {
    var title: String { get }
}

@MainActor final class TitledSection: SettingsSection {
    let title: String
    init(_ title: String) { self.title = title }
}

extension Injections {
    @MainActor var settingsSections: Contributions<any SettingsSection> {
        shared(contributions(to: \.settingsSections))
    }
    @MainActor var generalSection: any SettingsSection { shared(TitledSection("general")) }
    @MainActor var privacySection: any SettingsSection { TitledSection("privacy") }
    @MainActor var debugSection: any SettingsSection { TitledSection("debug") }

    /// Made from the test module's hook.
    static func contributeMainActorFixtures() {
        container.contributeOnMainActor {
            $0.contribute(\.generalSection, to: \.settingsSections)
            $0.contribute(\.privacySection, to: \.settingsSections)
        }
    }
}

/// Each test runs in its own layer (the `.injections` trait).
@Suite(.injections { _ in }) struct MainActorCollectionTests {
    @MainActor @Test func aMainActorCollectionGathersMainActorElements() {
        let sections = Injections.container.resolve(\.settingsSections)
        #expect(sections.map(\.title) == ["general", "privacy"])
    }

    @MainActor @Test func aSharedMainActorCollectionIsKeptWhileHeld() {
        let sections = Injections.container.resolve(\.settingsSections)
        #expect(Injections.container.resolve(\.settingsSections) === sections)
    }

    @MainActor @Test(.injections { $0.contribute(\.debugSection, to: \.settingsSections) })
    func aTestAddsAMainActorElementInItsLayer() {
        let sections = Injections.container.resolve(\.settingsSections)
        #expect(sections.map(\.title) == ["general", "privacy", "debug"])
    }

    @MainActor
    @Test(.injections { $0.registerOnMainActor(\.privacySection) { TitledSection("stub") } })
    func aTestReplacesAMainActorElement() {
        let sections = Injections.container.resolve(\.settingsSections)
        #expect(sections.map(\.title) == ["general", "stub"])
    }
}
