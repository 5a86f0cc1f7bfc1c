import Foundation

/// The figures of one run: median nanoseconds per operation, per scenario and library.
struct Results {
    private var figures: [Scenario: [Library: Double]] = [:]

    subscript(scenario: Scenario, library: Library) -> Double? {
        get { figures[scenario]?[library] }
        set { figures[scenario, default: [:]][library] = newValue }
    }

    /// The figures as CSV: `scenario,library,median_ns`, one line per measured cell.
    func csv() -> String {
        var lines = ["scenario,library,median_ns"]
        for scenario in Scenario.allCases {
            for library in Library.allCases {
                if let ns = self[scenario, library] {
                    lines.append(
                        "\(scenario.rawValue),\(library.rawValue),\(format(ns, digits: 2))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The figures as one Markdown table: a row per scenario, the libraries' medians, each
    /// library's ratio to direct construction, and InjectableKit's speed-up over each peer.
    /// Below the `threads-*` rows, rows of operations per second and the two-thread speed-up;
    /// below the `call-sites` rows, each library's slowest site over its fastest.
    func table() -> String {
        let header = [
            "scenario", "direct", "InjectableKit", "Swinject", "swift-dependencies",
            "IK / direct", "Swinject / direct", "s-d / direct",
            "IK speed-up vs Swinject", "IK speed-up vs s-d",
        ]
        var rows: [[String]] = []
        let measured = Scenario.allCases.filter { scenario in
            Library.allCases.contains { self[scenario, $0] != nil }
        }
        let lastCallSite = measured.last { Scenario.callSites.contains($0) }
        for scenario in measured {
            let ns = Library.allCases.map { self[scenario, $0] }
            let direct = self[scenario, .direct]
            let kit = self[scenario, .injectableKit]
            let peers: [Library] = [.swinject, .swiftDependencies]
            rows.append(
                [scenario.rawValue] + ns.map { $0.map { format($0) } ?? "" }
                    + [.injectableKit, .swinject, .swiftDependencies].map {
                        ratio(self[scenario, $0], direct)
                    }
                    + peers.map { ratio(self[scenario, $0], kit) })
            if scenario == .threads2 && self[.threads1, .direct] != nil { rows += threadRows() }
            if scenario == lastCallSite { rows.append(callSiteSpreadRow()) }
        }
        return render(header: header, rows: rows)
    }

    /// Operations per second on one and on two threads, and how much two threads gain.
    private func threadRows() -> [[String]] {
        func cells(_ value: (Library) -> String) -> [String] {
            Library.allCases.map(value) + Array(repeating: "", count: 5)
        }
        func opsPerSecond(_ scenario: Scenario, threads: Double, _ library: Library) -> Double? {
            self[scenario, library].map { threads * 1e9 / $0 }
        }
        return [
            ["threads-1 Mops/s"]
                + cells { library in
                    opsPerSecond(.threads1, threads: 1, library).map { format($0 / 1e6) } ?? ""
                },
            ["threads-2 Mops/s (both)"]
                + cells { library in
                    opsPerSecond(.threads2, threads: 2, library).map { format($0 / 1e6) } ?? ""
                },
            ["threads 2-vs-1 speed-up"]
                + cells { library in
                    ratio(
                        opsPerSecond(.threads2, threads: 2, library),
                        opsPerSecond(.threads1, threads: 1, library))
                },
        ]
    }
}

extension Results {
    /// Each library's slowest `call-sites` figure over its fastest: how much more a key costs
    /// from the slowest call site (1.00x: where a key is resolved from costs nothing).
    private func callSiteSpreadRow() -> [String] {
        ["call-sites slowest / fastest"]
            + Library.allCases.map { library in
                let figures = Scenario.callSites.compactMap { self[$0, library] }
                return figures.count < 2 ? "" : ratio(figures.max(), figures.min())
            } + Array(repeating: "", count: 5)
    }
}

/// `value / base` as `3.2x`, or empty when either is missing.
private func ratio(_ value: Double?, _ base: Double?) -> String {
    guard let value, let base, base > 0 else { return "" }
    return format(value / base, digits: value / base < 10 ? 2 : 1) + "x"
}

private func format(_ value: Double, digits: Int? = nil) -> String {
    let digits = digits ?? (value < 10 ? 2 : value < 1000 ? 1 : 0)
    return String(format: "%.\(digits)f", value)
}

/// A Markdown table with aligned columns: text left, figures right.
private func render(header: [String], rows: [[String]]) -> String {
    let widths = header.indices.map { column in
        ([header] + rows).map { $0[column].count }.max()!
    }
    func line(_ cells: [String]) -> String {
        let padded = cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return column == 0 ? cell + padding : padding + cell
        }
        return "| " + padded.joined(separator: " | ") + " |"
    }
    let rule = widths.enumerated().map { column, width in
        column == 0
            ? String(repeating: "-", count: width)
            : String(repeating: "-", count: width - 1) + ":"
    }
    return ([line(header), "| " + rule.joined(separator: " | ") + " |"] + rows.map(line))
        .joined(separator: "\n")
}
