import Glibc
import LifebusIO

/// The names of the files in `folder` (`.` and `..` aside) whose names end with `suffix`, sorted; empty when the
/// folder is missing.
func fileNames(in folder: String, endingWith suffix: String) -> [String] {
    (FolderEntries.names(in: folder) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
}

/// The whole text of a small file; `nil` when it cannot be opened.
func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// A new private folder under /tmp whose name starts with `prefix`; the test removes it when it ends, pass or fail
/// (`defer { FolderEntries.removeTree(folder) }`, or `withTemporaryFolder`).
func makeTemporaryFolder(_ prefix: String) -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

/// Calls `body` with a new private folder under /tmp whose name starts with `prefix`, then removes the folder with
/// all it holds (never following a link), whether `body` returns or throws.
func withTemporaryFolder<Result>(_ prefix: String, _ body: (String) throws -> Result) rethrows -> Result {
    let folder = makeTemporaryFolder(prefix)
    defer { FolderEntries.removeTree(folder) }
    return try body(folder)
}
