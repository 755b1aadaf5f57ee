import LifebusContainment

/// Loading a scenario file from disk: `.yaml`, `.yml` or `.json`, at most `maxBytes`, UTF-8. Stateless.
public enum ScenarioFile {
    /// The largest scenario file read (a generated reproducer of a thousand steps is far smaller).
    public static let maxBytes = 1024 * 1024

    public static let extensions = ["yaml", "yml", "json"]

    /// Reads and parses the file at `path`; every failure says `FILE[:LINE:COLUMN]: why`.
    public static func load(
        _ path: String, fireWords: @escaping FireWordsParser
    ) throws(ScenarioFileError) -> Scenario {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), extensions.contains(String(name[name.index(after: dot)...])) else {
            throw ScenarioFileError(path: path, line: 0, column: 0,
                                    message: "a scenario file ends in .yaml, .yml or .json")
        }
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try SystemFiles.read(path, limit: maxBytes)
        } catch {
            throw ScenarioFileError(path: path, line: 0, column: 0, message: "cannot read: \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ScenarioFileError(path: path, line: 0, column: 0, message: "not UTF-8 text")
        }
        return try ScenarioParser(path: path, fireWords: fireWords).parse(text, defaultName: String(name[..<dot]))
    }

    /// The folder of `path` (`.` for a bare name), where its manifest paths start.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
