import Foundation

/// A key declared in an `extension Injections`: a computed property or a subscript.
package struct DeclaredKey: Equatable {
    enum Kind: Equatable {
        /// A property the check resolves, off the caller's thread.
        case property
        /// A `@MainActor` property, resolved on the main actor.
        case mainActor
        /// Not resolved, with the reason the generated file gives.
        case skipped(String)
    }

    let name: String
    let kind: Kind
    /// The `#if` conditions the declaration sits under, outermost first.
    let conditions: [String]
    /// Whether other modules name it without `@testable import`: `public`, `open` or `package`.
    var isVisible = false
}

/// Finds the keys that Swift source declares in `extension Injections` blocks, without a
/// parser: comments and literals are blanked out, then each declaration is the text before the
/// brace that opens its body, at the file's top level or an extension's.
package enum KeyScanner {
    package static func keys(in source: String) -> [DeclaredKey] {
        let code = Array(blankingCommentsAndLiterals(source))
        var keys: [DeclaredKey] = []
        // The text since the last brace or `;`, the attributes and access of the
        // `extension Injections` being read (`nil` outside one), and its `#if`s.
        var header = ""
        var attributes: String?
        var conditions: [(taken: [String], current: String)] = []
        var depth = 0
        var lineStart = true
        var index = 0
        while index < code.count {
            let character = code[index]
            if depth == 1, attributes != nil, lineStart,
                applyDirective(in: code, at: index, to: &conditions)
            {
                index += code[index...].prefix { $0 != "\n" }.count
                continue
            }
            lineStart = character == "\n" || (lineStart && character.isWhitespace)
            switch character {
            case "{":
                if depth == 0 {
                    attributes = injectionsAttributes(header)
                    conditions = []
                    lineStart = true  // a body's `#if` may follow its brace
                } else if depth == 1, let attributes,
                    let key = key(declaredBy: header, extensionAttributes: attributes)
                {
                    let access = (header + " " + attributes).split(whereSeparator: \.isWhitespace)
                    let active = conditions.map { frame in
                        (frame.taken.map { "!(\($0))" } + [frame.current]).joined(separator: " && ")
                    }
                    keys.append(
                        DeclaredKey(
                            name: key.name, kind: key.kind, conditions: active,
                            isVisible: access.contains {
                                ["public", "open", "package"].contains($0)
                            }))
                }
                depth += 1
                header = ""
            case "}":
                depth = max(depth - 1, 0)
                if depth == 0 { attributes = nil }
                header = ""
            case ";":
                header = ""
            default:
                if depth == 0 || (depth == 1 && attributes != nil) { header.append(character) }
            }
            index += 1
        }
        return keys
    }

    /// The text before `extension` in a declaration of `extension Injections` (or
    /// `InjectableKit.Injections`), its attributes and access; `nil` for any other declaration.
    private static func injectionsAttributes(_ header: String) -> String? {
        let text = Array(header)
        guard let start = text.indices.first(where: { isWord("extension", in: text, at: $0) })
        else { return nil }
        let name = String(text[(start + "extension".count)...].prefix { $0 != ":" && $0 != "\n" })
        let names = ["Injections", "InjectableKit.Injections"]
        return names.contains(name.trimmingCharacters(in: .whitespacesAndNewlines))
            ? String(text[..<start]) : nil
    }

    /// Applies the `#if`, `#elseif`, `#else` or `#endif` line starting at `index`, if there is
    /// one, to `conditions`, and says whether there was.
    private static func applyDirective(
        in code: [Character], at index: Int,
        to conditions: inout [(taken: [String], current: String)]
    ) -> Bool {
        guard code[index] == "#" else { return false }
        let line = String(code[index...].prefix { $0 != "\n" })
        let word = String(line.dropFirst().prefix { $0.isLetter })
        let condition = String(line.dropFirst(word.count + 1)).trimmingCharacters(
            in: .whitespacesAndNewlines)
        switch word {
        case "if": conditions.append(([], condition))
        case "elseif", "else":
            guard var last = conditions.popLast() else { return true }
            last.taken.append(last.current)
            last.current = word == "else" ? "true" : condition
            conditions.append(last)
        case "endif": _ = conditions.popLast()
        default: return false
        }
        return true
    }

    /// The key a member's declaration text declares, if it is one.
    static func key(declaredBy header: String, extensionAttributes: String = "")
        -> (name: String, kind: DeclaredKey.Kind)?
    {
        let words = header.split(whereSeparator: \.isWhitespace).map(String.init)
        let context = extensionAttributes.split(whereSeparator: \.isWhitespace).map(String.init)
        guard
            let declaration = words.firstIndex(where: { $0 == "var" || $0.hasPrefix("subscript") })
        else { return nil }
        let prefix = words[..<declaration] + context
        // `static`, or a member other code cannot name: not a key.
        let hidden = ["static", "class", "private", "fileprivate"]
        if prefix.contains(where: { word in hidden.contains { word.hasPrefix($0) } }) {
            return nil
        }
        if words[declaration].hasPrefix("subscript") {
            let signature = words[declaration...].joined(separator: " ")
            return (signature, .skipped("takes arguments"))
        }
        guard declaration + 1 < words.count else { return nil }
        let name = String(words[declaration + 1].prefix { $0 != ":" })
            .trimmingCharacters(in: ["`"])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            return nil
        }
        let attributes = prefix.joined(separator: " ")
        if attributes.contains("unavailable") || attributes.contains("deprecated") {
            return (name, .skipped("deprecated"))
        }
        let actors = prefix.filter { $0.hasPrefix("@") && $0.hasSuffix("Actor") }
        if actors.contains("@MainActor") { return (name, .mainActor) }
        if let actor = actors.first { return (name, .skipped("isolated to \(actor.dropFirst())")) }
        return (name, .property)
    }

    /// `source` with its comments and the insides of its string literals replaced by spaces
    /// (newlines kept), so that no brace or keyword in them is read as code.
    static func blankingCommentsAndLiterals(_ source: String) -> String {
        let text = Array(source)
        var output: [Character] = []
        output.reserveCapacity(text.count)
        var index = 0
        func blank(until end: Int) {
            while index < min(end, text.count) {
                output.append(text[index] == "\n" ? "\n" : " ")
                index += 1
            }
        }
        while index < text.count {
            if text[index] == "/", index + 1 < text.count, text[index + 1] == "/" {
                blank(until: text[index...].firstIndex(of: "\n") ?? text.count)
            } else if text[index] == "/", index + 1 < text.count, text[index + 1] == "*" {
                blank(until: endOfNesting(text, from: index, open: "/*", close: "*/"))
            } else if startsStringLiteral(text, at: index) {
                let end = endOfStringLiteral(text, from: index)
                output.append("\"")
                index += 1
                blank(until: end - 1)
                if index < text.count { output.append("\"") }
                index = max(index, end)
            } else {
                output.append(text[index])
                index += 1
            }
        }
        return String(output)
    }

    /// Whether a string literal starts at `index`: a quote, or a raw string's `#`s and quote.
    private static func startsStringLiteral(_ text: [Character], at index: Int) -> Bool {
        let hashes = text[index...].prefix { $0 == "#" }.count
        return index + hashes < text.count && text[index + hashes] == "\""
    }

    /// The index just after the string literal that starts at `start` (its `#`s or quote):
    /// single-line, multi-line or raw, with interpolations, which may hold literals themselves.
    static func endOfStringLiteral(_ text: [Character], from start: Int) -> Int {
        let hashes = text[start...].prefix { $0 == "#" }.count
        var index = start + hashes
        let multiline = text.count >= index + 3 && text[index..<index + 3].allSatisfy { $0 == "\"" }
        index += multiline ? 3 : 1
        let closing = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
        let escape = "\\" + String(repeating: "#", count: hashes)
        while index < text.count {
            if text[index...].starts(with: escape) {
                index += escape.count
                if index < text.count, text[index] == "(" {
                    index = endOfNesting(
                        text, from: index, open: "(", close: ")", skippingLiterals: true)
                } else {
                    index += 1
                }
            } else if text[index...].starts(with: closing) {
                return index + closing.count
            } else if !multiline, text[index] == "\n" {
                return index
            } else {
                index += 1
            }
        }
        return text.count
    }

    /// The index just after the `close` that balances the `open` at `start`: a block comment's
    /// end, or with `skippingLiterals`, an interpolation's, whose literals may hold parentheses.
    private static func endOfNesting(
        _ text: [Character], from start: Int, open: String, close: String,
        skippingLiterals: Bool = false
    ) -> Int {
        var depth = 0
        var index = start
        while index < text.count {
            if skippingLiterals, startsStringLiteral(text, at: index) {
                index = endOfStringLiteral(text, from: index)
            } else if text[index...].starts(with: open) {
                depth += 1
                index += open.count
            } else if text[index...].starts(with: close) {
                depth -= 1
                index += close.count
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return text.count
    }

    private static func isWord(_ word: String, in code: [Character], at index: Int) -> Bool {
        guard code[index...].starts(with: word) else { return false }
        let before = index == 0 ? " " : code[index - 1]
        let after = index + word.count < code.count ? code[index + word.count] : " "
        return !(before.isLetter || before.isNumber || before == "_")
            && !(after.isLetter || after.isNumber || after == "_")
    }
}
