// Checks the library's system dependencies against .ci/availability.tsv (run.sh builds and runs
// this). Linux ignores `@available`, so this list is where Apple platforms' versions are kept:
//
// - every module a library source imports, or names in `canImport`, must have an `import` row;
// - every top-level name that a source uses from a tracked module must have a row: all of
//   Synchronization's, Observation's, Foundation's and Dispatch's, and the standard library's
//   and concurrency's that Apple introduced after Swift's ABI became stable (those carry
//   availability). The names come from the toolchain's own modules, so a new use is caught
//   without a hand-kept list of names;
// - a row's versions must match the availability that the toolchain's Swift modules carry
//   (the standard library, concurrency, Synchronization, Observation), and its `floor` column
//   must say whether it is above iOS 13 and macOS 10.15.
//
// Names are matched as words: a name the library declares itself, a member (`.name`) or an
// argument label (`name:`) is not taken for a system one. Members of system types are not
// tracked, except for the rows that name them (`Type.member`), whose versions are checked.
import Foundation

let platforms = ["iOS", "macOS", "tvOS", "watchOS", "visionOS"]
let listPath = ".ci/availability.tsv"
let sourceRoots = ["Sources/InjectableKit", "Sources/InjectableTesting"]
/// Modules whose symbol graphs give names to track, the module their names are listed under
/// (FoundationEssentials is part of Foundation on Apple platforms), and the graph files to read
/// (the standard library's graph puts concurrency's names in a file of their own).
let graphs = [
    ("Swift", "Swift", ["Swift", "_Concurrency@Swift"]),
    ("Synchronization", "Synchronization", ["Synchronization"]),
    ("Observation", "Observation", ["Observation"]),
    ("Foundation", "Foundation", ["Foundation"]),
    ("FoundationEssentials", "Foundation", ["FoundationEssentials"]),
    ("Dispatch", "Dispatch", ["Dispatch"]),
]
/// Modules whose rows' versions the toolchain can confirm: their Linux builds keep Apple's
/// `@available` attributes.
let versionedModules: Set = ["Swift", "Synchronization", "Observation"]

struct Row {
    let module: String
    let api: String
    let versions: [String: String]
    let floor: String
    let line: Int
}

struct Symbol {
    let path: String
    let versions: [String: String]
}

var failures: [String] = []
@MainActor func fail(_ message: String) { failures.append(message) }

// MARK: - The list

var rows: [Row] = []
let listText = try String(contentsOfFile: listPath, encoding: .utf8)
for (index, line) in listText.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
where !line.isEmpty && !line.hasPrefix("#") {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count >= 8 else {
        fail("\(listPath):\(index + 1): expected 8 or more tab-separated fields")
        continue
    }
    if fields[0] == "module" { continue }  // the header
    let versions = Dictionary(uniqueKeysWithValues: zip(platforms, fields[2...6]))
    rows.append(
        Row(
            module: fields[0], api: fields[1], versions: versions, floor: fields[7], line: index + 1
        ))
}
let listed = Set(rows.map { "\($0.module) \($0.api)" })

/// `major.minor` as a pair; `nil` for `-` (not available, or not an Apple module).
func version(_ text: String) -> (Int, Int)? {
    let parts = text.split(separator: ".").compactMap { Int($0) }
    return parts.isEmpty ? nil : (parts[0], parts.count > 1 ? parts[1] : 0)
}

for row in rows {
    let above =
        version(row.versions["iOS"]!).map { $0 > (13, 0) } == true
        || version(row.versions["macOS"]!).map { $0 > (10, 15) } == true
    let expected = above ? "above" : "ok"
    if row.floor != expected {
        fail("\(listPath):\(row.line): \(row.module) \(row.api): floor should be '\(expected)'")
    }
}

// MARK: - The toolchain's symbol graphs

let graphDirectory = FileManager.default.temporaryDirectory
    .appendingPathComponent("availability-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: graphDirectory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: graphDirectory) }

let triple = CommandLine.arguments.dropFirst().first ?? "x86_64-unknown-linux-gnu"
let extractions = graphs.map { module, _, _ in
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "swift-symbolgraph-extract", "-module-name", module, "-target", triple,
        "-output-dir", graphDirectory.path,
    ]
    try! process.run()
    return process
}
for process in extractions {
    process.waitUntilExit()
    if process.terminationStatus != 0 { fail("swift-symbolgraph-extract failed: \(process)") }
}

/// Every symbol of each module, under the module it is listed as.
var symbols: [String: [Symbol]] = [:]
for (_, listedAs, graphFiles) in graphs {
    for graphFile in graphFiles {
        let url = graphDirectory.appendingPathComponent("\(graphFile).symbols.json")
        guard let data = try? Data(contentsOf: url),
            let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = graph["symbols"] as? [[String: Any]]
        else {
            fail("no symbol graph \(graphFile)")
            continue
        }
        read(entries, as: listedAs)
    }
}

@MainActor func read(_ entries: [[String: Any]], as listedAs: String) {
    for entry in entries {
        guard let path = entry["pathComponents"] as? [String] else { continue }
        var versions: [String: String] = [:]
        for item in entry["availability"] as? [[String: Any]] ?? [] {
            guard let domain = item["domain"] as? String,
                let introduced = item["introduced"] as? [String: Int]
            else { continue }
            versions[domain] = "\(introduced["major"] ?? 0).\(introduced["minor"] ?? 0)"
        }
        symbols[listedAs, default: []].append(
            Symbol(path: path.joined(separator: "."), versions: versions))
    }
}

/// The base name of a symbol path's last component: `withObservationTracking(_:onChange:)`
/// is `withObservationTracking`.
func baseName(_ path: String) -> String {
    String(path.prefix { $0 != "(" })
}

/// Top-level names to track, per module.
var tracked: [String: Set<String>] = [:]
for (module, moduleSymbols) in symbols {
    for symbol in moduleSymbols where !symbol.path.contains(".") || symbol.path.hasSuffix(")") {
        let name = baseName(symbol.path)
        guard !name.contains("."), name.first.map({ $0.isLetter || $0 == "_" }) == true else {
            continue
        }
        // The standard library: only what Apple introduced after the ABI became stable.
        if module == "Swift" && !platforms.contains(where: { symbol.versions[$0] != nil }) {
            continue
        }
        tracked[module, default: []].insert(name)
    }
}

// Versions: a row of a versioned module must match the toolchain. A row without a parameter
// list names every overload, and gives the earliest.
for row in rows where versionedModules.contains(row.module) && row.api != "import" {
    let matches = (symbols[row.module] ?? []).filter {
        $0.path == row.api || (!row.api.contains("(") && baseName($0.path) == row.api)
    }
    guard !matches.isEmpty else {
        fail("\(listPath):\(row.line): \(row.module) has no \(row.api)")
        continue
    }
    for platform in platforms {
        let known = matches.compactMap { $0.versions[platform] }.compactMap(version)
        guard let earliest = known.min(by: <) else { continue }
        let text = "\(earliest.0).\(earliest.1)"
        if version(row.versions[platform]!).map({ $0 != earliest }) ?? true {
            fail(
                "\(listPath):\(row.line): \(row.module) \(row.api): \(platform) is \(text) "
                    + "in the toolchain, not \(row.versions[platform]!)")
        }
    }
}

// MARK: - The library's sources

var files: [String] = []
for root in sourceRoots {
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
        if path.hasSuffix(".swift") { files.append("\(root)/\(path)") }
    }
}

/// `import M`, `@preconcurrency import M`, `import struct M.Name`.
let importPattern = try NSRegularExpression(
    pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:[a-z]+\s+)?(\w+)"#)
let canImportPattern = try NSRegularExpression(pattern: #"canImport\((\w+)"#)
let declarationPattern = try NSRegularExpression(
    pattern:
        #"\b(?:func|var|let|class|struct|enum|protocol|typealias|case|actor|associatedtype)\s+`?(\w+)"#
)
let genericPattern = try NSRegularExpression(pattern: #"[<,]\s*([A-Z]\w*)\s*(?=[:,>])"#)
/// Parameter names and labels (`_ log: ...`), and closure and loop variables.
let parameterPattern = try NSRegularExpression(pattern: #"\b([a-z_]\w*)\s*:(?!:)"#)
let closurePattern = try NSRegularExpression(
    pattern: #"(?:\{|\bfor)\s*(?:\[[^\]]*\]\s*)?\(?\s*([a-z_][\w\s,]*?)\)?\s+in\b"#)
let wordPattern = try NSRegularExpression(pattern: #"(?<![.\w$])([A-Za-z_]\w*)(?!\w|:[^:])"#)
/// The C library has no symbol graph: its calls are told by their names (`pthread_...`,
/// `memcmp`), in the files that import it, and listed under Darwin.
let cLibraryPattern = try NSRegularExpression(
    pattern: #"^(?:(?:pthread|os|sched|sem|mach|dispatch)_\w+|(?:mem|str)[a-z]+)$"#)
let cLibraries: Set = ["Darwin", "Glibc", "Musl"]
/// Keywords that the standard library also declares as names (the old `async { }` function).
let keywords: Set = [
    "async", "await", "throws", "rethrows", "some", "any", "isolated", "in", "struct",
]
let stringPattern = try NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)

func matches(_ pattern: NSRegularExpression, in text: String) -> [String] {
    let range = NSRange(text.startIndex..., in: text)
    return pattern.matches(in: text, range: range).map {
        String(text[Range($0.range(at: 1), in: text)!])
    }
}

/// A line without its comment and the contents of its string literals.
func code(_ line: String) -> String {
    let range = NSRange(line.startIndex..., in: line)
    let withoutStrings = stringPattern.stringByReplacingMatches(
        in: line, range: range, withTemplate: "\"\"")
    guard let comment = withoutStrings.range(of: "//") else { return withoutStrings }
    return String(withoutStrings[..<comment.lowerBound])
}

var sources: [(file: String, lines: [String])] = []
var declared: Set<String> = []
for file in files.sorted() {
    let lines = try String(contentsOfFile: file, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false).map { code(String($0)) }
    sources.append((file, lines))
    for line in lines {
        declared.formUnion(matches(declarationPattern, in: line))
        declared.formUnion(matches(genericPattern, in: line))
        declared.formUnion(matches(parameterPattern, in: line))
        for names in matches(closurePattern, in: line) {
            declared.formUnion(
                names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
    }
}

let ownModules = Set(try FileManager.default.contentsOfDirectory(atPath: "Sources"))
/// Each missing row, with where it is first needed and how many lines need it.
var missing: [String: (location: String, count: Int)] = [:]
@MainActor func need(_ key: String, at location: String) {
    if listed.contains(key) { return }
    missing[key, default: (location, 0)].count += 1
}
for (file, lines) in sources {
    let importsCLibrary = lines.contains { line in
        matches(importPattern, in: line).contains(where: cLibraries.contains)
    }
    for (index, line) in lines.enumerated() {
        let location = "\(file):\(index + 1)"
        for module in matches(importPattern, in: line) + matches(canImportPattern, in: line)
        where !ownModules.contains(module) {
            need("\(module) import", at: location)
        }
        for word in Set(matches(wordPattern, in: line))
        where !declared.contains(word) && !keywords.contains(word) {
            for (module, names) in tracked where names.contains(word) {
                need("\(module) \(word)", at: location)
            }
            if importsCLibrary,
                cLibraryPattern.firstMatch(in: word, range: NSRange(word.startIndex..., in: word))
                    != nil
            {
                need("Darwin \(word)", at: location)
            }
        }
    }
}

for (key, use) in missing.sorted(by: { $0.key < $1.key }) {
    let also = use.count > 1 ? " (and \(use.count - 1) more lines)" : ""
    fail("\(use.location)\(also): no row '\(key)' in \(listPath)")
}

if failures.isEmpty {
    print("availability: \(rows.count) rows; every system module and tracked name used is listed")
} else {
    for failure in failures { print("FAIL \(failure)") }
    print("availability: \(failures.count) problems (the list is \(listPath))")
    exit(1)
}
