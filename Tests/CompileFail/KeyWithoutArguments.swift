// expect: has no member 'account'
// A key that takes arguments cannot be used without them.
import InjectableKit

final class Account {
    let id: Int
    init(id: Int) { self.id = id }
}

extension Injections {
    subscript(account id: Int) -> Account { cached(Account(id: id)) }
}

func use() {
    _ = Injections.container.resolve(\.account)
}
