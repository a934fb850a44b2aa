import Foundation
import PackagePlugin

/// Embeds the repository's `migrations/NNNN_short_name.sql` files into the target that uses
/// this plugin (the Store), so the built binary never needs the source tree at run time.
///
/// It runs the `embed-migrations` tool, which writes `EmbeddedMigrations.swift` into the
/// plugin's work directory; SwiftPM compiles that file into the target. Every file in
/// `migrations/` is an input, so editing, adding or removing one regenerates the source.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appendingPathComponent("migrations", isDirectory: true)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let inputs = files.sorted().map { directory.appendingPathComponent($0) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) migration file(s) from migrations/",
                executable: try context.tool(named: "embed-migrations").url,
                arguments: [directory.path, output.path],
                inputFiles: [directory] + inputs,
                outputFiles: [output]),
        ]
    }
}
