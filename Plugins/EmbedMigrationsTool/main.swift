import Foundation

/// `embed-migrations <migrations-directory> <output.swift>`
///
/// Reads every `NNNN_short_name.sql` file, checks the names (four-digit versions 1, 2, 3, …
/// with no gaps; lowercase name), and writes a Swift source that defines
/// `Migration.embedded` with each file's exact text. Any other `.sql` name stops the build
/// with a message naming the file. Files not ending in `.sql` (a README) are ignored.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: embed-migrations: \(message)\n".utf8))
    exit(1)
}

/// A Swift string literal whose value is exactly `text`.
func swiftLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: embed-migrations <migrations-directory> <output.swift>") }
let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
let output = URL(fileURLWithPath: arguments[2])

let names: [String]
do {
    names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }.sorted()
} catch {
    fail("cannot read \(directory.path): \(error)")
}

var entries: [String] = []
for (index, fileName) in names.enumerated() {
    let stem = fileName.dropLast(4)
    let parts = stem.split(separator: "_", maxSplits: 1)
    guard parts.count == 2, parts[0].count == 4, let version = Int(parts[0]),
          !parts[1].isEmpty,
          parts[1].allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) else {
        fail("\(fileName): migration files are named NNNN_short_name.sql (four digits, lowercase letters, digits, _)")
    }
    guard version == index + 1 else {
        fail("\(fileName): expected version \(String(format: "%04d", index + 1)); versions start at 0001 with no gaps or repeats")
    }
    let data: Data
    do { data = try Data(contentsOf: directory.appendingPathComponent(fileName)) } catch {
        fail("cannot read \(fileName): \(error)")
    }
    guard let sql = String(data: data, encoding: .utf8) else { fail("\(fileName) is not valid UTF-8") }
    entries.append("""
            Migration(version: \(version), name: \(swiftLiteral(String(parts[1]))), fileName: \(swiftLiteral(fileName)),
                      sql: \(swiftLiteral(sql))),
    """)
}

let source = """
// Generated at build time by the EmbedMigrations plugin from migrations/*.sql. Do not edit;
// edit the .sql files (and add new ones) instead.

extension Migration {
    /// Every migration in `migrations/`, in version order, with each file's exact text.
    public static let embedded: [Migration] = [
\(entries.joined(separator: "\n"))
    ]
}

"""
// Rewrite only when the content changes, so an unchanged set does not recompile the Store.
if (try? String(contentsOf: output, encoding: .utf8)) != source {
    do {
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try source.write(to: output, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot write \(output.path): \(error)")
    }
}
