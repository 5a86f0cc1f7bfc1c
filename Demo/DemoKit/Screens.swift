import InjectableKit

/// The accounts screen, rendered as text.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor struct AccountsScreen {
    @InjectableObject(\.accountsViewModel) var viewModel

    func render() -> [String] {
        viewModel.load()
        var lines = ["Accounts"]
        for account in viewModel.accounts {
            lines.append(row("#\(account.id) \(account.name)", account.balanceCents))
        }
        lines.append(row("Total", viewModel.totalCents))
        return lines
    }
}

/// The profile screen, rendered as text.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor struct ProfileScreen {
    @InjectableObject(\.profileViewModel) var viewModel

    func render() -> [String] {
        viewModel.load()
        guard let profile = viewModel.profile else { return ["Profile", "  (none)"] }
        return ["Profile", "  \(profile.name) <\(profile.email)>, \(profile.plan) plan"]
    }
}

/// One account's detail screen, rendered as text.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor struct AccountDetailScreen {
    @InjectableObject var viewModel: AccountDetailViewModel

    init(id: Int) {
        _viewModel = InjectableObject(\.[account: id])
    }

    func render() -> [String] {
        viewModel.open()
        guard let account = viewModel.account else { return ["Account #\(viewModel.id): none"] }
        var lines = ["Account #\(account.id) \(account.name)"]
        for transaction in viewModel.transactions {
            lines.append(row(transaction.memo, transaction.amountCents, signed: true))
        }
        lines.append(row("Balance", account.balanceCents))
        return lines
    }
}

/// A label and an amount, aligned in columns.
private func row(_ label: String, _ cents: Int, signed: Bool = false) -> String {
    let amount = euros(cents, signed: signed)
    let padding = max(1, 38 - label.count - amount.count)
    return "  " + label + String(repeating: " ", count: padding) + amount
}

/// `1234567` cents as `12,345.67 EUR`; with `signed`, a `+` before positive amounts.
func euros(_ cents: Int, signed: Bool = false) -> String {
    money(cents, "EUR", signed: signed)
}

/// `1234567` cents as `12,345.67` and the currency's code.
func money(_ cents: Int, _ currency: String, signed: Bool = false) -> String {
    let sign = cents < 0 ? "-" : (signed ? "+" : "")
    let whole = String(abs(cents) / 100)
    let fraction = abs(cents) % 100
    var grouped = ""
    for (index, digit) in whole.enumerated() {
        if index > 0 && (whole.count - index) % 3 == 0 { grouped.append(",") }
        grouped.append(digit)
    }
    return "\(sign)\(grouped).\(fraction < 10 ? "0" : "")\(fraction) \(currency)"
}
