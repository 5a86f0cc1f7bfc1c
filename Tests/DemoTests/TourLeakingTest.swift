import DemoKit
import Foundation
import InjectableKit
import Testing

/// The test the tour's parallel-tests step runs in a child process, to show the report a test
/// gets for a register outside its layer. Enabled only there: it fails on purpose.
@Test(.enabled(if: ProcessInfo.processInfo.environment[Tour.leakingTestVariable] != nil))
func tourLeakingTestRegistersOutsideItsLayer() {
    Injections.container.register(\.api) { MockBankAPI() }
    Injections.container.reset(\.api)
}
