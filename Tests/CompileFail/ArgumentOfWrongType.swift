// expect: cannot convert value of type 'String' to expected argument type 'Int'
// A key's arguments are type-checked like a function's.
import InjectableKit

final class Account {
    let id: Int
    init(id: Int) { self.id = id }
}

extension Injections {
    subscript(account id: Int) -> Account { cached(Account(id: id)) }
}

func use() {
    _ = Injections.container.resolve(\.[account: "42"])
}
