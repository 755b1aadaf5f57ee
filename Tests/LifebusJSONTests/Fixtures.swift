import Foundation

/// Files the JSON tests read from the source tree: the JSONTestSuite texts (`Tests/Fixtures/json-test-suite`) and
/// the protocol's README, which documents the parser's implementation-defined decisions.
enum Fixtures {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let jsonTestSuite = testsDirectory.appendingPathComponent("Fixtures/json-test-suite/test_parsing")
    static let protocolReadme = testsDirectory.deletingLastPathComponent().appendingPathComponent("Protocol/README.md")

    static func files(in directory: URL, prefix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }
}
