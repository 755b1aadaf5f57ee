/// A scenario file that cannot be read or is not a scenario: where (`FILE:LINE:COLUMN`, 1-based; 0 when the place
/// is the whole file) and why, said for people.
public struct ScenarioFileError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`, as compilers say it (so editors jump to the place).
    public var description: String {
        line == 0 ? "\(path): \(message)" : "\(path):\(line):\(column): \(message)"
    }
}
