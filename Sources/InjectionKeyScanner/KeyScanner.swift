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
/// parser: comments and literals are blanked out, then each member's declaration is the text
/// at the extension's top level before the brace that opens its body.
package enum KeyScanner {
    package static func keys(in source: String) -> [DeclaredKey] {
        let code = Array(blankingCommentsAndLiterals(source))
        var keys: [DeclaredKey] = []
        var index = 0
        while let (attributes, bodyStart) = nextExtension(in: code, from: index) {
            index = scanBody(code, from: bodyStart, attributes: attributes, into: &keys)
        }
        return keys
    }

    /// The next `extension Injections` (or `InjectableKit.Injections`), with the text before
    /// `extension` on its line (attributes, access) and the index after its `{`.
    private static func nextExtension(in code: [Character], from start: Int) -> (String, Int)? {
        var index = start
        while index < code.count {
            guard isWord("extension", in: code, at: index) else {
                index += 1
                continue
            }
            var cursor = index + "extension".count
            let name = String(code[cursor...].prefix { $0 != "{" && $0 != ":" && $0 != "\n" })
                .trimming(\.isWhitespace)
            cursor += code[cursor...].prefix { $0 != "{" }.count
            guard cursor < code.count else { return nil }
            if name == "Injections" || name == "InjectableKit.Injections" {
                // Its attributes and access: the text since the declaration before it.
                let start = code[..<index].lastIndex { "{};".contains($0) }.map { $0 + 1 } ?? 0
                return (String(code[start..<index]), cursor + 1)
            }
            index = cursor + 1
        }
        return nil
    }

    /// Reads an extension's body from just after its `{`, adding its keys; returns the index
    /// after its closing `}`.
    private static func scanBody(
        _ code: [Character], from start: Int, attributes: String, into keys: inout [DeclaredKey]
    ) -> Int {
        var depth = 0
        var header = ""
        var conditions: [(taken: [String], current: String)] = []
        var index = start
        var lineStart = true
        while index < code.count {
            let character = code[index]
            if depth == 0, lineStart, applyDirective(in: code, at: index, to: &conditions) {
                index += code[index...].prefix { $0 != "\n" }.count
                continue
            }
            lineStart = character == "\n" || (lineStart && character.isWhitespace)
            switch character {
            case "{":
                if depth == 0, let key = key(declaredBy: header, extensionAttributes: attributes) {
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
            case "}":
                if depth == 0 { return index + 1 }
                depth -= 1
                if depth == 0 { header = "" }
            case ";" where depth == 0:
                header = ""
            default:
                if depth == 0 { header.append(character) }
            }
            index += 1
        }
        return index
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
        let condition = String(line.dropFirst(word.count + 1)).trimming(\.isWhitespace)
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
            .trimming { $0 == "`" }
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

extension String {
    /// The string without the characters at either end for which `trimmed` is true.
    func trimming(_ trimmed: (Character) -> Bool) -> String {
        String(drop(while: trimmed).reversed().drop(while: trimmed).reversed())
    }
}
