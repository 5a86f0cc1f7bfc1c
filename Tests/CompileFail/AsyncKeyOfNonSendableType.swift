// expect: does not conform to the 'Sendable' protocol
// An async construction hands its instance across tasks, so the type must be Sendable.
// prelude: Isolation
import InjectableKit

final class Handle { var count = 0 }
extension Injections {
    var handle: AsyncInjection<Handle, Never> { AsyncInjection { Handle() } }
}
