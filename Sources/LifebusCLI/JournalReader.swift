import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusTimeline

/// Reads a broker's journal file (one `JournalEntry` JSON object per line) without a broker.
///
/// Stateless. The broker appends whole lines with write(2), so only the last line can be torn (the broker was
/// killed mid-write): a last line without its newline that does not parse is reported as `tornTail` and skipped.
/// Any other line that does not parse is kept as a `Problem` (line number and reason) and skipped — the reader
/// never traps on what the file holds. Records of a kind it does not know (another `type`) are skipped silently.
enum JournalReader {
    struct Problem: Equatable, CustomStringConvertible {
        let line: Int
        let reason: String

        var description: String { "line \(line): \(reason)" }
    }

    struct Reading: Equatable {
        var entries: [JournalEntry] = []
        var problems: [Problem] = []
        /// The file ended with a partial line that was skipped.
        var tornTail = false
    }

    enum Failure: Error, CustomStringConvertible {
        case cannotRead(path: String, errno: Int32)

        var description: String {
            switch self {
            case .cannotRead(let path, let code): "cannot read \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Reads and parses the file at `path`.
    static func read(path: String) throws(Failure) -> Reading {
        parse(try readFile(path))
    }

    /// Parses journal text: lines separated by `\n`; blank lines are ignored.
    static func parse(_ bytes: [UInt8]) -> Reading {
        var reading = Reading()
        let endsWithNewline = bytes.last == UInt8(ascii: "\n")
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let isUnterminatedTail = index == lines.count - 1 && !endsWithNewline
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { continue }
            do {
                let json = try JSONParser.parse(Array(line))
                if let entry = try JournalEntries.decode(json) { reading.entries.append(entry) }
            } catch {
                if isUnterminatedTail {
                    reading.tornTail = true
                } else {
                    reading.problems.append(Problem(line: index + 1, reason: "\(error)"))
                }
            }
        }
        return reading
    }

    /// How many skipped lines `report` names one by one; it counts the rest.
    static let problemsNamed = 10

    /// Tells standard error what `reading` skipped in the file at `path`: the first `problemsNamed` lines, then how
    /// many more.
    static func report(_ reading: Reading, path: String) {
        for problem in reading.problems.prefix(problemsNamed) {
            StandardError.writeLine("lifebus: \(path) \(problem); skipped")
        }
        if reading.problems.count > problemsNamed {
            StandardError.writeLine("lifebus: \(path): \(reading.problems.count - problemsNamed) more lines skipped")
        }
        if reading.tornTail {
            StandardError.writeLine("lifebus: \(path) ends with a torn line (the broker stopped mid-write); skipped")
        }
    }

    /// The entries of the journal at `path`, for a command: a file that cannot be read, or whose lines are not one
    /// journal record (it is not a journal: `README.md`, a log), is said on stderr and ends the command with exit 1;
    /// problems in a journal's lines are reported (`report`) and the good lines kept.
    static func entriesForCommand(path: String) throws(CLIExitStatus) -> [JournalEntry] {
        let reading: Reading
        do {
            reading = try read(path: path)
        } catch {
            StandardError.writeLine("lifebus: \(error)")
            throw .conditionNotMet
        }
        if let notAJournal = notAJournal(reading) {
            StandardError.writeLine("lifebus: \(path) is not a Lifebus journal: \(notAJournal)")
            throw .conditionNotMet
        }
        report(reading, path: path)
        return reading.entries
    }

    /// Why `reading` is not a journal's, or `nil`: no line was a record and some were not JSON records at all (an
    /// empty journal, or one of record kinds this version does not know, is still a journal).
    static func notAJournal(_ reading: Reading) -> String? {
        guard reading.entries.isEmpty, let first = reading.problems.first else { return nil }
        return "no line is a journal record (\(first))"
    }

    private static func readFile(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, errno: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, errno: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
