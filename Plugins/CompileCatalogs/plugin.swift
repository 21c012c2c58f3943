import Foundation
import PackagePlugin

/// Compiles po/LL.po into LL/LC_MESSAGES/quoted.mo in the plugin's folder (msgfmt, as a Debian
/// build does) and tells QuoteBase where that folder is, so a program run from this build
/// speaks the catalogs of this checkout (`swift run quotectl` under LANG=ko_KR.UTF-8).
@main
struct CompileCatalogs: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "po")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path())) ?? [])
            .filter { $0.hasSuffix(".po") }
            .sorted()
        let inputs = names.map { folder.appending(path: $0) }
        let locale = context.pluginWorkDirectoryURL.appending(path: "locale")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltCatalogs.swift")
        return [
            .buildCommand(
                displayName: "Compiling \(names.count) message catalogs",
                executable: try context.tool(named: "catalog-compiler").url,
                arguments: [output.path(), locale.path()] + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
