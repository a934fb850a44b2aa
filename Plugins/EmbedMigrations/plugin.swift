import Foundation
import PackagePlugin

/// Embeds the repository's `migrations/NNNN_short_name.sql` files into the target that uses
/// this plugin (the Store), so the built binary never needs the source tree at run time.
///
/// It runs the `embed-migrations` tool, which writes `EmbeddedMigrations.swift` into the
/// plugin's work directory; SwiftPM compiles that file into the target. Every `.sql` file is
/// an input, so adding or editing one regenerates the source. (Only the files are inputs:
/// with the directory listed too, SwiftPM 6.3 missed edits. Removing or renaming a file
/// needs `touch Package.swift` so SwiftPM re-runs this plugin; released migrations are
/// never removed, and EmbeddedMigrationsTests fails if the embedded set is ever stale.)
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appendingPathComponent("migrations", isDirectory: true)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let inputs = files.filter { $0.hasSuffix(".sql") }.sorted().map { directory.appendingPathComponent($0) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) migration file(s) from migrations/",
                executable: try context.tool(named: "embed-migrations").url,
                arguments: [directory.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]),
        ]
    }
}
