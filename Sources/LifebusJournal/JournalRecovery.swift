import LifebusJSON

/// What a broker finds at the end of its journal file when it starts: the bytes of a torn last line to cut (a
/// broker killed mid-write left a line without its newline) and the `seq` of the last whole line, which the new
/// run continues from.
///
/// A plain value made by `scan`, which reads only the file's tail: a window of `initialWindow` bytes, doubled
/// until it holds a whole line that parses with a `seq` (or the whole file). A read that comes back short cuts
/// nothing.
struct JournalRecovery: Equatable {
    /// Bytes after the last newline, to cut off.
    let cutBytes: Int
    /// The `seq` of the last whole line that has one; `nil` when none does.
    let lastSequence: Int64?

    static let initialWindow = 64 * 1024

    /// Scans a file of `size` bytes whose bytes `read(offset, count)` returns.
    static func scan(size: Int, read: (Int, Int) -> [UInt8]) -> JournalRecovery {
        var window = min(size, initialWindow)
        while true {
            let start = size - window
            let bytes = read(start, window)
            // A short read leaves the end unknown: cut nothing rather than what could not be seen.
            guard bytes.count == window else { return JournalRecovery(cutBytes: 0, lastSequence: nil) }
            let newline = UInt8(ascii: "\n")
            guard let lastNewline = bytes.lastIndex(of: newline) else {
                if start == 0 { return JournalRecovery(cutBytes: size, lastSequence: nil) }
                window = min(size, window * 2)
                continue
            }
            let cut = bytes.count - (lastNewline + 1)
            var lineEnd = lastNewline
            while true {
                let lineStart = bytes[..<lineEnd].lastIndex(of: newline).map { $0 + 1 }
                guard let from = lineStart ?? (start == 0 ? 0 : nil) else { break }  // the line begins before
                if let seq = sequence(of: bytes[from..<lineEnd]) {
                    return JournalRecovery(cutBytes: cut, lastSequence: seq)
                }
                guard from > 0 else { return JournalRecovery(cutBytes: cut, lastSequence: nil) }
                lineEnd = from - 1
            }
            window = min(size, window * 2)
        }
    }

    /// The `seq` of one journal line, if it is a JSON object with an integer `seq`.
    private static func sequence(of line: ArraySlice<UInt8>) -> Int64? {
        guard !line.isEmpty, let json = try? JSONParser.parse(Array(line)) else { return nil }
        return json["seq"]?.int64Value
    }
}
