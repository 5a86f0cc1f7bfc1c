import Foundation
import PackagePlugin

/// Adds `Injections.verifyAll()` to the target it is applied to (a test target): a check of
/// every key that the modules it links declare in `extension Injections`, listed anew at every
/// build from their sources, so that no key is ever missing from it.
@main
struct InjectionKeys: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let modules = linkedModules(of: target).map { module in
            (module.moduleName, module.sourceFiles(withSuffix: "swift").map(\.url))
        }
        return [
            try command(
                modules,
                output: context.pluginWorkDirectoryURL.appending(path: "InjectionKeys.swift"),
                tool: context.tool(named: "InjectionKeysGenerator").url)
        ]
    }

    /// The source modules `target` depends on, directly or through others, but InjectableKit's.
    private func linkedModules(of target: Target) -> [SourceModuleTarget] {
        var seen: Set<String> = []
        var found: [SourceModuleTarget] = []
        func visit(_ dependencies: [TargetDependency]) {
            for dependency in dependencies {
                let targets: [Target] =
                    switch dependency {
                    case .target(let target): [target]
                    case .product(let product): product.targets
                    @unknown default: []
                    }
                for target in targets where seen.insert(target.id).inserted {
                    visit(target.dependencies)
                    guard let module = target as? SourceModuleTarget,
                        !["InjectableKit", "InjectableTesting"].contains(module.moduleName),
                        module.kind != .test
                    else { continue }
                    found.append(module)
                }
            }
        }
        visit(target.dependencies)
        return found
    }
}

/// The command that writes the generated file from `modules`' sources.
func command(_ modules: [(name: String, sources: [URL])], output: URL, tool: URL) throws -> Command
{
    var arguments = [output.path]
    for module in modules {
        arguments += ["--module", module.name] + module.sources.map(\.path)
    }
    return .buildCommand(
        displayName:
            "Listing the Injections keys of \(modules.map(\.name).joined(separator: ", "))",
        executable: tool, arguments: arguments,
        inputFiles: modules.flatMap(\.sources), outputFiles: [output])
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension InjectionKeys: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
            -> [Command]
        {
            var seen: Set<String> = []
            var modules: [(name: String, sources: [URL])] = []
            func visit(_ dependencies: [XcodeTargetDependency]) {
                for case .target(let dependency) in dependencies
                where seen.insert(dependency.id).inserted {
                    visit(dependency.dependencies)
                    let sources = dependency.inputFiles.filter { $0.url.pathExtension == "swift" }
                    guard !sources.isEmpty, let name = dependency.product?.name else { continue }
                    modules.append(
                        (name.replacingOccurrences(of: "-", with: "_"), sources.map(\.url)))
                }
            }
            visit(target.dependencies)
            return [
                try command(
                    modules,
                    output: context.pluginWorkDirectoryURL.appending(path: "InjectionKeys.swift"),
                    tool: context.tool(named: "InjectionKeysGenerator").url)
            ]
        }
    }
#endif
