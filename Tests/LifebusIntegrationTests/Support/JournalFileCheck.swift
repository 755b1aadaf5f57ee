import Glibc
import LifebusJSON

/// A journal file as a test reads it after the broker: its lines, which of them are not whole JSON, and the
/// entries' `seq`s and run records.
///
/// A plain value read once. "Whole" means every line parses and the file ends with a newline.
struct JournalFileCheck {
    let lineCount: Int
    let entries: [JSONValue]
    /// 1-based numbers of the lines that do not parse.
    let brokenLines: [Int]
    let endsWithNewline: Bool

    init(path: String) throws {
        let bytes = try readBytes(path)
        let lines = bytes.split(separator: 0x0A)
        lineCount = lines.count
        var entries: [JSONValue] = []
        var broken: [Int] = []
        for (index, line) in lines.enumerated() {
            if let value = try? JSONParser.parse(Array(line)) {
                entries.append(value)
            } else {
                broken.append(index + 1)
            }
        }
        self.entries = entries
        brokenLines = broken
        endsWithNewline = bytes.isEmpty || bytes.last == 0x0A
    }

    var isWhole: Bool { brokenLines.isEmpty && endsWithNewline }

    var seqs: [Int64] { entries.compactMap { $0["seq"]?.int64Value } }

    /// Whether `seq` goes up by exactly one from line to line.
    var seqsAreContiguous: Bool {
        zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 }
    }

    /// The run records with this `reason`.
    func runRecords(_ reason: String) -> [JSONValue] {
        entries.filter { $0["type"]?.stringValue == "run" && $0["reason"]?.stringValue == reason }
    }
}

/// The size of a file in bytes (0 when it does not exist).
func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
}
