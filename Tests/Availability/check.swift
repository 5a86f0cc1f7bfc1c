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
//
// Then every use of something above the deployment floor (iOS 13, macOS 10.15, tvOS 13,
// watchOS 6, visionOS 1), in Sources, Demo and Tests, must be inside code available where it
// is (Linux ignores `@available`, so this stands in for the Apple compiler's check):
//
// - what is above the floor: a name of the toolchain's Swift, Synchronization and Observation
//   modules whose earliest overload is (its own versions), a row marked `above` (a top-level
//   name, or `Type.member(label:...)` called as such; a protocol's requirement, such as
//   `AsyncSequence.Failure`, is not told: a conforming type may declare it at any version, and
//   `for await` chooses what to call), and the project's own declarations that are (an
//   `@available` of their own, or of the extension they are members of; a name also declared
//   at the floor is left out, and a function is told by its call's argument labels, so
//   `cached(X())` is not `cached(X(), timeToLive:)`; a call with only a trailing closure is told
//   only on a member, `.verify { }`);
// - what covers a use: an `@available` on a declaration around it (found by matching braces: a
//   block belongs to the last statement before it, with its attributes and continued lines),
//   or on the declaration whose header or line holds it; an `if #available` block; the rest of
//   the block after a `guard #available`. Comments, string literals and `#if` lines are blanked
//   first, and both branches of an `#if` are checked. A use inside an `@available` lower than
//   what it needs fails as one outside any;
// - every `@available`/`#available` above the floor names the five platforms, then `*`, with
//   the versions of one system generation that a row gives (iOS 17 goes with macOS 14);
// - Foundation's `withLock(_:)` (a row) on a lock the same file makes or declares as an
//   `NSLock`, `NSCondition`, ...;
// - in a file that does not import Foundation, a string-processing call (`contains` with a
//   string literal of two characters or more, `firstRange(of:)`, `replacing`, ...) is the
//   standard library's, which needs iOS 16 and macOS 13 (Foundation's runs everywhere). Only
//   literals are told: `text.contains(other)` with a string variable is not.
//
// What it does not see: types (a member is told by its name and labels, not its receiver), the
// Foundation, Dispatch and SwiftUI of Apple's SDKs (Linux's have no availability), bodiless
// declarations over several lines, and a guard's refinement outside braces.
//
// The self-test (SelfTest/Snippets.swift, never compiled) marks the lines that must be flagged;
// the check fails unless it flags exactly those, so it cannot pass by finding nothing.
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
    /// The kind of declaration: `swift.protocol`, `swift.struct`, ...
    let kind: String
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
            Symbol(
                path: path.joined(separator: "."), versions: versions,
                kind: (entry["kind"] as? [String: Any])?["identifier"] as? String ?? ""))
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

// MARK: - Uses of newer APIs, against the `@available` around them

/// A version for each platform; a platform left out is at the floor.
typealias Versions = [String: (Int, Int)]

let floorVersions: Versions = [
    "iOS": (13, 0), "macOS": (10, 15), "tvOS": (13, 0), "watchOS": (6, 0), "visionOS": (1, 0),
]

func versions(of row: Row) -> Versions {
    row.versions.compactMapValues(version)
}

func isAbove(_ versions: Versions) -> Bool {
    platforms.contains { platform in
        versions[platform].map { $0 > floorVersions[platform]! } == true
    }
}

/// Whether code available from `have` may use what needs `need`.
func covers(_ have: Versions, _ need: Versions) -> Bool {
    platforms.allSatisfy { platform in
        (have[platform] ?? floorVersions[platform]!) >= (need[platform] ?? floorVersions[platform]!)
    }
}

/// Per platform, the later (`later`) or the earlier of two availabilities.
func combined(_ a: Versions, _ b: Versions, later: Bool) -> Versions {
    var result: Versions = [:]
    for platform in platforms {
        let x = a[platform] ?? floorVersions[platform]!
        let y = b[platform] ?? floorVersions[platform]!
        result[platform] = (x > y) == later ? x : y
    }
    return result
}

func spelled(_ versions: Versions) -> String {
    platforms.map { platform in
        let v = versions[platform] ?? floorVersions[platform]!
        return "\(platform) \(v.0)" + (v.1 == 0 ? "" : ".\(v.1)")
    }.joined(separator: ", ")
}

/// The system generations the list knows (the floor, and each row's five versions): an
/// `@available` must give one of them, so that its platforms agree (iOS 17 with macOS 14).
var generations: [Versions] = [floorVersions]
for row in rows where versions(of: row).count == platforms.count {
    generations.append(versions(of: row))
}

/// The versions an `@available(...)` or `#available(...)` argument list names.
func parsedVersions(_ arguments: String) -> (versions: Versions, platformsNamed: [String]) {
    var result: Versions = [:]
    var named: [String] = []
    for part in arguments.split(separator: ",") {
        let words = part.split(separator: " ").map(String.init)
        guard words.count == 2, platforms.contains(words[0]), let v = version(words[1]) else {
            continue
        }
        result[words[0]] = v
        named.append(words[0])
    }
    return (result, named)
}

/// A file's text as ASCII code: comments, string literals' contents and `#if` lines blanked
/// (each byte a space, newlines kept), so that offsets are the file's byte offsets.
func codeText(_ text: String) -> [UInt8] {
    var bytes = Array(text.utf8)
    var index = 0
    func blank(_ range: Range<Int>) {
        for i in range where bytes[i] != UInt8(ascii: "\n") { bytes[i] = UInt8(ascii: " ") }
    }
    func at(_ i: Int, _ s: String) -> Bool {
        let u = Array(s.utf8)
        return i + u.count <= bytes.count && Array(bytes[i..<i + u.count]) == u
    }
    /// The end of a string literal starting at `start` (its opening quote, after `hashes`
    /// pound signs), with interpolations skipped.
    func endOfString(_ start: Int, hashes: Int) -> Int {
        let multiline = at(start, "\"\"\"")
        let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
        var i = start + (multiline ? 3 : 1)
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\") {
                if hashes == 0 && at(i, "\\(") {
                    var depth = 0
                    i += 1
                    while i < bytes.count {
                        if bytes[i] == UInt8(ascii: "(") { depth += 1 }
                        if bytes[i] == UInt8(ascii: ")") {
                            depth -= 1
                            if depth == 0 { break }
                        }
                        if bytes[i] == UInt8(ascii: "\"") { i = endOfString(i, hashes: 0) - 1 }
                        i += 1
                    }
                    i += 1  // past the interpolation's `)`
                    continue
                }
                i += 2  // past the escaped character
                continue
            }
            if at(i, close) { return i + close.utf8.count }
            i += 1
        }
        return bytes.count
    }
    while index < bytes.count {
        if at(index, "//") {
            let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            blank(index..<end)
            index = end
        } else if at(index, "/*") {
            var depth = 0
            var i = index
            repeat {
                if at(i, "/*") {
                    depth += 1
                    i += 2
                } else if at(i, "*/") {
                    depth -= 1
                    i += 2
                } else {
                    i += 1
                }
            } while depth > 0 && i < bytes.count
            blank(index..<i)
            index = i
        } else if bytes[index] == UInt8(ascii: "\"")
            || (bytes[index] == UInt8(ascii: "#")
                && bytes[index...].drop { $0 == UInt8(ascii: "#") }.first == UInt8(ascii: "\""))
        {
            let hashes = bytes[index...].prefix { $0 == UInt8(ascii: "#") }.count
            let end = endOfString(index + hashes, hashes: hashes)
            blank(index + hashes + 1..<max(index + hashes + 1, end - 1 - hashes))
            index = end
        } else {
            index += 1
        }
    }
    for i in bytes.indices where bytes[i] >= 0x80 { bytes[i] = UInt8(ascii: " ") }
    // `#if` branches: both are code here.
    var lineStart = 0
    for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: "\n") {
        let line = String(decoding: bytes[lineStart..<i], as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        if ["#if", "#else", "#elseif", "#endif"].contains(where: { line.hasPrefix($0) }) {
            blank(lineStart..<i)
        }
        lineStart = i + 1
    }
    return bytes
}

/// A stretch of a file and the availability it has.
struct Region {
    let range: Range<Int>
    let versions: Versions
}

/// A declaration or call's place in a file.
struct Place {
    let file: String
    let offset: Int
    let line: Int
}

let availablePattern = try NSRegularExpression(pattern: #"@available\s*\(([^)]*)\)"#)
let conditionPattern = try NSRegularExpression(pattern: #"#available\s*\(([^)]*)\)"#)
let attributeOnlyPattern = try NSRegularExpression(
    pattern: #"^(?:@[\w.]+(?:\s*\((?:[^()]|\([^()]*\))*\))?\s*)+$"#)

func firstMatch(_ pattern: NSRegularExpression, _ text: String) -> Bool {
    pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
}

/// The `@available` and `#available` versions in `text`.
func declaredVersions(_ pattern: NSRegularExpression, in text: String) -> Versions? {
    let found = matches(pattern, in: text).map { parsedVersions($0).versions }
        .filter { !$0.isEmpty }
    return found.isEmpty ? nil : found.reduce(floorVersions) { combined($0, $1, later: true) }
}

/// The logical lines of `text` (a newline inside parentheses or brackets does not end one),
/// each with its offset in `text`.
func logicalLines(_ text: [UInt8]) -> [(start: Int, text: String)] {
    var lines: [(Int, String)] = []
    var depth = 0
    var start = 0
    for i in 0...text.count {
        if i == text.count || (text[i] == UInt8(ascii: "\n") && depth <= 0) {
            let line = String(decoding: text[start..<i], as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            if !line.isEmpty { lines.append((start, line)) }
            start = i + 1
        } else if text[i] == UInt8(ascii: "(") || text[i] == UInt8(ascii: "[") {
            depth += 1
        } else if text[i] == UInt8(ascii: ")") || text[i] == UInt8(ascii: "]") {
            depth -= 1
        }
    }
    return lines
}

/// Whether logical line `next` continues `line`'s statement.
func continues(_ line: String, _ next: String) -> Bool {
    let starts = [
        "where", "->", "throws", "rethrows", "async", "else", ":", ",", ".", "&", "|", "=", "?",
        ">",
    ]
    let ends = [",", "(", "<", "&&", "||", "=", "->", ":", "&", "|"]
    return starts.contains { next.hasPrefix($0) } || ends.contains { line.hasSuffix($0) }
}

/// One scanned source file: its code, and the regions that have an availability.
struct ScannedFile {
    let path: String
    let code: [UInt8]
    let text: String
    var regions: [Region] = []
    /// Each `@available` or `#available` above the floor, with its offset, for the spelling rule.
    var annotations: [(offset: Int, arguments: String)] = []
    /// Every braced block, and whether it is the body of an extension with an `@available`.
    var blocks: [(range: Range<Int>, isAnnotatedExtension: Bool)] = []

    init(path: String) throws {
        self.path = path
        code = codeText(try String(contentsOfFile: path, encoding: .utf8))
        text = String(decoding: code, as: UTF8.self)
        scan()
    }

    func line(of offset: Int) -> Int {
        code[..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    /// The availability at `offset`: the latest of every region around it.
    func availability(at offset: Int) -> Versions {
        regions.filter { $0.range.contains(offset) }.reduce(floorVersions) {
            combined($0, $1.versions, later: true)
        }
    }

    /// The statement or declaration that ends at `end` (a block's `{`, a keyword's end): its
    /// header goes back to the previous brace or semicolon, and it is the header's last
    /// logical line, with the attribute lines and the lines it continues before it.
    func owner(endingAt end: Int) -> (start: Int, text: String) {
        let boundary = code[..<end].lastIndex {
            $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: ";")
        }
        let headerStart = boundary.map { $0 + 1 } ?? 0
        let lines = logicalLines(Array(code[headerStart..<end]))
        guard var first = lines.indices.last else { return (end, "") }
        while first > 0,
            firstMatch(attributeOnlyPattern, lines[first - 1].text)
                || continues(lines[first - 1].text, lines[first].text)
        {
            first -= 1
        }
        let start = headerStart + lines[first].start
        return (
            start,
            String(decoding: code[start..<end], as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    private mutating func scan() {
        let range = NSRange(text.startIndex..., in: text)
        for pattern in [availablePattern, conditionPattern] {
            for match in pattern.matches(in: text, range: range) {
                let arguments = String(text[Range(match.range(at: 1), in: text)!])
                if isAbove(parsedVersions(arguments).versions) {
                    annotations.append((match.range.location, arguments))
                }
            }
        }
        // Every braced block, innermost last: `{` ... `}`.
        var open: [Int] = []
        var braces: [(open: Int, close: Int)] = []
        for (i, byte) in code.enumerated() {
            if byte == UInt8(ascii: "{") { open.append(i) }
            if byte == UInt8(ascii: "}"), let start = open.popLast() { braces.append((start, i)) }
        }
        for block in braces {
            let (ownerStart, owner) = self.owner(endingAt: block.open)
            let declared = declaredVersions(availablePattern, in: owner)
            if let declared {
                regions.append(Region(range: ownerStart..<block.close, versions: declared))
            }
            let statement = owner.replacingOccurrences(
                of: #"^(?:@[\w.]+(?:\s*\([^)]*\))?\s*)*"#, with: "", options: .regularExpression)
            let isExtension =
                statement.range(of: #"^(?:\w+\s+)*extension\b"#, options: .regularExpression) != nil
            blocks.append((block.open..<block.close, declared != nil && isExtension))
            if let condition = declaredVersions(conditionPattern, in: owner) {
                if statement.hasPrefix("if") {
                    regions.append(Region(range: block.open..<block.close, versions: condition))
                } else if statement.hasPrefix("guard") {
                    // The rest of the enclosing block, after the `else` block.
                    let end =
                        braces.filter { $0.open < block.open && $0.close > block.close }
                        .map(\.close).min() ?? code.count
                    regions.append(Region(range: block.close..<end, versions: condition))
                }
            }
        }
        // A declaration without a body: from its `@available` to the end of its line.
        for match in availablePattern.matches(in: text, range: range) {
            let arguments = String(text[Range(match.range(at: 1), in: text)!])
            let declared = parsedVersions(arguments).versions
            guard !declared.isEmpty else { continue }
            let start = match.range.location
            let rest = logicalLines(Array(code[start...]))
            guard
                let declaration = rest.first(where: { !firstMatch(attributeOnlyPattern, $0.text) })
            else { continue }
            let end = start + declaration.start + declaration.text.utf8.count
            regions.append(Region(range: start..<end, versions: declared))
        }
    }
}

/// A declaration of the project's: a function's parameters, and the availability it has.
struct Declaration {
    let name: String
    let isFunction: Bool
    /// Each parameter's label (`_` for none) and whether it has a default.
    let parameters: [(label: String, defaulted: Bool)]
    let versions: Versions
    /// Whether the declaration carries an `@available` of its own.
    let annotated: Bool
}

let declarationKeyword = try NSRegularExpression(
    pattern:
        #"\b(func|var|let|class|struct|enum|protocol|typealias|actor|case)\s+`?([A-Za-z_]\w*)"#)
let identifierPattern = try NSRegularExpression(pattern: #"[A-Za-z_]\w*"#)

/// The balanced parenthesised list starting at `open` (a `(`), split at its top-level commas,
/// and the offset after its `)`.
func argumentList(_ code: [UInt8], at open: Int) -> (items: [String], end: Int) {
    var depth = 0
    var items: [String] = []
    var start = open + 1
    var i = open
    while i < code.count {
        switch code[i] {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            depth -= 1
            if depth == 0 {
                items.append(String(decoding: code[start..<i], as: UTF8.self))
                return (
                    items.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty },
                    i + 1
                )
            }
        case UInt8(ascii: ",") where depth == 1:
            items.append(String(decoding: code[start..<i], as: UTF8.self))
            start = i + 1
        default: break
        }
        i += 1
    }
    return (items, code.count)
}

/// An argument's or a parameter's label: `label: value`, or `_`.
func label(_ item: String, parameter: Bool) -> String {
    let words = item.trimmingCharacters(in: .whitespacesAndNewlines)
        .prefix { $0 != ":" && $0 != "=" }.split(separator: " ")
    let colon = item.contains(":") && !item.trimmingCharacters(in: .whitespaces).hasPrefix(":")
    guard colon, let first = words.first else { return "_" }
    if parameter { return String(first) }
    return words.count == 1 && item.range(of: #"^\s*\w+\s*:"#, options: .regularExpression) != nil
        ? String(first) : "_"
}

/// The project's declarations in `file`.
func declarations(in file: ScannedFile) -> [Declaration] {
    let range = NSRange(file.text.startIndex..., in: file.text)
    return declarationKeyword.matches(in: file.text, range: range).map { match in
        let keyword = String(file.text[Range(match.range(at: 1), in: file.text)!])
        let name = String(file.text[Range(match.range(at: 2), in: file.text)!])
        let offset = match.range(at: 2).location
        var parameters: [(String, Bool)] = []
        if keyword == "func" {
            var i = offset + name.utf8.count
            if i < file.code.count, file.code[i] == UInt8(ascii: "<") {
                var depth = 0
                repeat {
                    if file.code[i] == UInt8(ascii: "<") { depth += 1 }
                    if file.code[i] == UInt8(ascii: ">") { depth -= 1 }
                    i += 1
                } while depth > 0 && i < file.code.count
            }
            if let open = file.code[i...].firstIndex(of: UInt8(ascii: "(")) {
                parameters = argumentList(file.code, at: open).items.map {
                    (label($0, parameter: true), $0.contains("="))
                }
            }
        }
        // Its own `@available`, or that of the extension it is a member of.
        let owner = file.owner(endingAt: match.range(at: 1).upperBound)
        let innermost = file.blocks.filter { $0.range.contains(offset) }
            .max { $0.range.lowerBound < $1.range.lowerBound }
        return Declaration(
            name: name, isFunction: keyword == "func", parameters: parameters,
            versions: file.availability(at: offset),
            annotated: declaredVersions(availablePattern, in: owner.text) != nil
                || innermost?.isAnnotatedExtension == true)
    }
}

/// A Foundation lock made or declared in a file: its name.
let foundationLockPattern = try NSRegularExpression(
    pattern:
        #"\b(?:let|var)\s+(\w+)\s*(?::\s*(?:NSLock|NSCondition|NSRecursiveLock|NSConditionLock)\??|=\s*(?:NSLock|NSCondition|NSRecursiveLock|NSConditionLock)\s*\()"#
)
let foundationImport = try NSRegularExpression(
    pattern: #"(?m)^\s*(?:@\w+\s+)*import\s+(?:[a-z]+\s+)?Foundation\b"#)
/// A string-processing call: `contains` with a string literal of two characters or more (one is
/// a `Character`, which `Sequence.contains` takes at every version), or a method only string
/// processing has.
let stringProcessingCall = try NSRegularExpression(
    pattern:
        #"\.(contains|firstRange|ranges|replacing|trimmingPrefix|wholeMatch|firstMatch|prefixMatch)\(\s*(?:of:\s*)?(?:"[^"\n]{2,}"|(?<=\.(?:firstRange|ranges|replacing|trimmingPrefix|wholeMatch|firstMatch|prefixMatch)\())"#
)
let stringProcessingVersions: Versions = [
    "iOS": (16, 0), "macOS": (13, 0), "tvOS": (16, 0), "watchOS": (9, 0), "visionOS": (1, 0),
]

/// Whether a call with `labels` (and maybe a trailing closure) can call a function with
/// `parameters`.
func accepts(
    _ parameters: [(label: String, defaulted: Bool)], _ labels: [String], trailingClosure: Bool
) -> Bool {
    let lastRequired = parameters.lastIndex { !$0.defaulted }
    var next = 0
    for (index, parameter) in parameters.enumerated() {
        if next < labels.count && parameter.label == labels[next] {
            next += 1
        } else if !parameter.defaulted
            && !(trailingClosure && index == lastRequired && next == labels.count)
        {
            return false
        }
    }
    return next == labels.count
}

/// Finds every use of something above the floor that the availability around it does not
/// cover, and every `@available`/`#available` above the floor that does not spell the five
/// platforms of one system generation. `reported` limits the findings to those files.
@MainActor func availabilityFindings(
    _ scanned: [ScannedFile], reportedIn reported: Set<String>
) -> [(file: String, line: Int, message: String)] {
    var findings: [(file: String, line: Int, message: String)] = []
    let all = scanned.flatMap(declarations)
    let declaredNames = Set(all.map(\.name))
    // The project's own names that need a newer system: those with an `@available` of their
    // own and no declaration of the same kind at the floor.
    var projectNames: [String: Versions] = [:]
    var functions: [String: [Declaration]] = [:]
    for declaration in all {
        if declaration.isFunction { functions[declaration.name, default: []].append(declaration) }
    }
    for (name, group) in Dictionary(grouping: all.filter { !$0.isFunction }, by: \.name)
    where group.contains(where: { $0.annotated && isAbove($0.versions) })
        && group.allSatisfy({ isAbove($0.versions) })
    {
        projectNames[name] = group.map(\.versions).dropFirst().reduce(group[0].versions) {
            combined($0, $1, later: false)
        }
    }
    functions = functions.filter { _, group in
        group.contains { $0.annotated && isAbove($0.versions) }
    }
    // The toolchain's names above the floor, used bare (the earliest of their overloads), and
    // the list's rows above it.
    var systemNames: [String: Versions] = [:]
    for (module, moduleSymbols) in symbols where versionedModules.contains(module) {
        for symbol in moduleSymbols where !symbol.path.contains(".") || symbol.path.hasSuffix(")") {
            let name = baseName(symbol.path)
            guard !name.contains("."), platforms.contains(where: { symbol.versions[$0] != nil })
            else { continue }
            let versions = symbol.versions.compactMapValues(version)
            systemNames[name] =
                systemNames[name].map { combined($0, versions, later: false) } ?? versions
        }
    }
    var memberRows: [(pattern: NSRegularExpression, api: String, versions: Versions)] = []
    for row in rows where row.floor == "above" && row.api != "import" {
        let parts = row.api.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 1 {
            systemNames[row.api] = versions(of: row)
            continue
        }
        // A protocol's requirement (`AsyncSequence.Failure`): a conforming type may declare it
        // at any version, and `for await` chooses whether to call it.
        let typeKind = (symbols[row.module] ?? []).first { $0.path == parts[0] }?.kind
        if typeKind == "swift.protocol" { continue }
        let member = baseName(parts[1])
        let firstLabel = parts[1].dropFirst(member.count + 1).prefix { $0 != ":" }
        let call =
            parts[1].contains("(")
            ? #"\s*\(\s*"# + (firstLabel == "_" ? "" : "\(firstLabel)\\s*:") : #"\b"#
        // `Type.member(...)`, or the implicit member `.member(...)` in an argument list.
        memberRows.append(
            (
                try! NSRegularExpression(
                    pattern: #"(?:\b\#(parts[0])\s*|(?<=[(\[,])\s*)\.\s*\#(member)"# + call),
                row.api,
                versions(of: row)
            ))
    }
    systemNames = systemNames.filter { isAbove($0.value) && !declaredNames.contains($0.key) }

    for file in scanned where reported.contains(file.path) {
        var seen: Set<String> = []
        func check(_ what: String, needs: Versions, at offset: Int) {
            let have = file.availability(at: offset)
            guard !covers(have, needs) else { return }
            let line = file.line(of: offset)
            guard seen.insert("\(line) \(what)").inserted else { return }
            findings.append(
                (
                    file.path, line,
                    "\(what) needs \(spelled(needs)); the availability around it is \(spelled(have)) "
                        + "(an @available on the declaration, or an if/guard #available)"
                ))
        }
        let range = NSRange(file.text.startIndex..., in: file.text)
        for match in identifierPattern.matches(in: file.text, range: range) {
            let offset = match.range.location
            let name = String(file.text[Range(match.range, in: file.text)!])
            let before = offset > 0 ? file.code[offset - 1] : UInt8(ascii: " ")
            if before >= UInt8(ascii: "0") && before <= UInt8(ascii: "9") { continue }
            // The next character on the line: a call's `(`, or its trailing closure's `{`.
            let after = file.code[(offset + name.utf8.count)...].first { $0 != UInt8(ascii: " ") }
            let end = offset + name.utf8.count
            let isLabel =
                after == UInt8(ascii: ":")
                && !(end + 1 < file.code.count && file.code[end + 1] == UInt8(ascii: ":"))
            let isMember = before == UInt8(ascii: ".")
            if !isMember, !isLabel, let needs = systemNames[name] {
                check("`\(name)`", needs: needs, at: offset)
            }
            if !isLabel, let needs = projectNames[name] {
                check("`\(name)`", needs: needs, at: offset)
            }
            // A call with only a trailing closure is told only on a member (`.verify {`): a
            // bare name before `{` is as often a condition before its block.
            if let overloads = functions[name],
                after == UInt8(ascii: "(") || (after == UInt8(ascii: "{") && isMember),
                !file.text[..<Range(match.range, in: file.text)!.lowerBound].hasSuffix("func ")
            {
                var labels: [String] = []
                var trailingClosure = after == UInt8(ascii: "{")
                if after == UInt8(ascii: "(") {
                    let open = file.code[end...].firstIndex(of: UInt8(ascii: "("))!
                    let (items, close) = argumentList(file.code, at: open)
                    labels = items.map { label($0, parameter: false) }
                    trailingClosure =
                        file.code[close...].first { $0 != UInt8(ascii: " ") } == UInt8(ascii: "{")
                }
                let candidates = overloads.filter {
                    accepts($0.parameters, labels, trailingClosure: trailingClosure)
                }
                if !candidates.isEmpty, candidates.allSatisfy({ isAbove($0.versions) }) {
                    let needs = candidates.map(\.versions).dropFirst().reduce(
                        candidates[0].versions
                    ) { combined($0, $1, later: false) }
                    let spelledLabels = labels.map { "\($0):" }.joined()
                    check("`\(name)(\(spelledLabels))`", needs: needs, at: offset)
                }
            }
        }
        // The standard library's string processing (iOS 16, macOS 13) takes a string argument
        // where Foundation, if the file imports it, offers the same call at every version:
        // `text.contains("ab")` compiles at the floor only beside `import Foundation`.
        if !firstMatch(foundationImport, file.text) {
            for match in stringProcessingCall.matches(in: file.text, range: range) {
                check(
                    "`\(file.text[Range(match.range(at: 1), in: file.text)!])(_:)` on a string "
                        + "without `import Foundation` (the standard library's string processing)",
                    needs: stringProcessingVersions, at: match.range.location)
            }
        }
        // Foundation's `withLock(_:)` on its locks (a row): told by a receiver this file makes
        // as one (`let lock = NSLock()`), since a member is not told by its receiver's type.
        if let withLock = rows.first(where: { $0.api == "NSLocking.withLock(_:)" }) {
            let locks = matches(foundationLockPattern, in: file.text)
            for name in Set(locks) {
                let use = try! NSRegularExpression(pattern: #"\b\#(name)\s*\.\s*withLock\b"#)
                for match in use.matches(in: file.text, range: range) {
                    check(
                        "`withLock` on the Foundation lock `\(name)`",
                        needs: versions(of: withLock),
                        at: match.range.location)
                }
            }
        }
        for row in memberRows {
            for match in row.pattern.matches(in: file.text, range: range) {
                check("`\(row.api)`", needs: row.versions, at: match.range.location)
            }
        }
        for annotation in file.annotations {
            let (versions, named) = parsedVersions(annotation.arguments)
            let line = file.line(of: annotation.offset)
            if named.sorted() != platforms.sorted() || !annotation.arguments.contains("*") {
                findings.append(
                    (
                        file.path, line,
                        "an availability above the floor names every platform, then `*`: "
                            + "\(platforms.joined(separator: ", ")), *"
                    ))
            } else if !generations.contains(where: { generation in
                platforms.allSatisfy { generation[$0]! == versions[$0]! }
            }) {
                findings.append(
                    (
                        file.path, line,
                        "\(spelled(versions)) are not one system generation; the list's are: "
                            + generations.map(spelled).joined(separator: " | ")
                    ))
            }
        }
    }
    return findings
}

/// The Swift files under `roots`.
func swiftFiles(under roots: [String], excluding excluded: [String] = []) -> [String] {
    var paths: [String] = []
    for root in roots {
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            let full = "\(root)/\(path)"
            if path.hasSuffix(".swift"), !excluded.contains(where: { full.hasPrefix($0) }) {
                paths.append(full)
            }
        }
    }
    return paths.sorted()
}

let selfTestRoot = "Tests/Availability/SelfTest"
let projectFiles = try swiftFiles(
    under: ["Sources", "Demo", "Tests"],
    excluding: ["Tests/Availability", "Tests/CompileFail"]
).map { try ScannedFile(path: $0) }
for finding in availabilityFindings(projectFiles, reportedIn: Set(projectFiles.map(\.path))) {
    fail("\(finding.file):\(finding.line): \(finding.message)")
}

// The self-test: the snippets' lines marked `// flagged` are exactly those the check flags, so
// that it cannot pass by finding nothing.
let snippetFiles = try swiftFiles(under: [selfTestRoot]).map { try ScannedFile(path: $0) }
let flagged = Set(
    availabilityFindings(projectFiles + snippetFiles, reportedIn: Set(snippetFiles.map(\.path)))
        .map { "\($0.file):\($0.line)" })
var marked: Set<String> = []
for file in snippetFiles {
    let raw = try String(contentsOfFile: file.path, encoding: .utf8)
    for (index, line) in raw.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where line.hasSuffix("// flagged") {
        marked.insert("\(file.path):\(index + 1)")
    }
}
if snippetFiles.isEmpty || marked.isEmpty { fail("self-test: no snippets in \(selfTestRoot)") }
for location in flagged.subtracting(marked).sorted() {
    fail("self-test: \(location) is flagged, but not marked `// flagged`")
}
for location in marked.subtracting(flagged).sorted() {
    fail("self-test: \(location) is marked `// flagged`, but the check does not flag it")
}

if failures.isEmpty {
    print(
        "availability: \(rows.count) rows; every system module and tracked name used is listed, "
            + "every use above the floor is inside code available where it is (self-test: "
            + "\(marked.count) marked lines flagged)")
} else {
    for failure in failures { print("FAIL \(failure)") }
    print("availability: \(failures.count) problems (the list is \(listPath))")
    exit(1)
}
