import Foundation

/// Paths to files the protocol tests read from the source tree.
enum Fixtures {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let repositoryRoot = testsDirectory.deletingLastPathComponent()
    static let schemas = repositoryRoot.appendingPathComponent("Protocol/schemas")

    static func files(in directory: URL, prefix: String = "", suffix: String = "") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }
}
