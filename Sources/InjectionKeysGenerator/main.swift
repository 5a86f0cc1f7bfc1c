// Writes the Swift file that the InjectionKeys plugin adds to a test target: an
// `Injections.verifyAll()` that checks every key the linked modules declare.
//
// Usage: InjectionKeysGenerator <output.swift> (--module <name> <source.swift>...)...
import Foundation
import InjectionKeyScanner

var arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.popFirst() else {
    FileHandle.standardError.write(
        Data("usage: InjectionKeysGenerator <output> (--module <name> <file>...)...\n".utf8))
    exit(2)
}
var modules: [(name: String, keys: [DeclaredKey])] = []
while let argument = arguments.popFirst() {
    if argument == "--module", let name = arguments.popFirst() {
        modules.append((name, []))
    } else if !modules.isEmpty {
        let source = try String(contentsOfFile: argument, encoding: .utf8)
        modules[modules.count - 1].keys += KeyScanner.keys(in: source)
    }
}
let text = GeneratedFile.text(for: modules.filter { !$0.keys.isEmpty })
// Written only when it changes, so that a build with no new key compiles nothing again.
if (try? String(contentsOfFile: output, encoding: .utf8)) != text {
    try text.write(toFile: output, atomically: true, encoding: .utf8)
}
