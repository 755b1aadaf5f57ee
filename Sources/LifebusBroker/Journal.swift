import DequeModule
import Glibc
import LifebusProtocol

/// Every transition and mark the broker recorded: appended to the journal file (one JSON line each) and kept in
/// memory for `history`.
///
/// Owns the file descriptor, the lines not yet written, the sequence numbers and the last `HistoryParams.retained`
/// entries. Bound to the broker's loop. Lines are gathered and written with one write(2) per `flush()`; the broker
/// flushes before it tells anyone of an entry (a controller's answer, an observer's notification) and at the end of
/// each loop turn, so a killed broker loses nothing it reported. Invariant: `seq` values are 1, 2, 3… in append
/// order, in the file and in memory alike.
final class Journal {
    private var descriptor: Int32 = -1
    /// The entries `history` sees, with their line lengths: at most `HistoryParams.retainedBytes` in all.
    private var recent = Deque<(entry: JournalEntry, bytes: Int)>()
    private var recentBytes = 0
    private var unwritten: [UInt8] = []
    private(set) var lastSequence: Int64 = 0

    /// Opens (creating, mode 0600, with its folders) the journal file at `path`; `nil` keeps memory only.
    init(path: String?) throws(JournalError) {
        guard let path else { return }
        Self.makeParentFolders(of: path)
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw JournalError(path: path, code: errno) }
    }

    /// A journal kept in memory only.
    static func inMemory() -> Journal {
        do { return try Journal(path: nil) } catch { preconditionFailure("a journal without a file cannot fail") }
    }

    deinit {
        flush()
        if descriptor >= 0 { close(descriptor) }
    }

    /// The number the next entry gets.
    func nextSequence() -> Int64 {
        lastSequence + 1
    }

    /// Appends an entry made with `nextSequence()`.
    func append(_ entry: JournalEntry) {
        lastSequence = entry.seq
        let bytes: Int
        if descriptor >= 0 {
            let before = unwritten.count
            entry.write(to: &unwritten)
            unwritten.append(0x0A)
            bytes = unwritten.count - before
        } else {
            bytes = entry.encodedSize
        }
        // Memory keeps a window bounded in count and in bytes; the file keeps everything.
        recent.append((entry, bytes))
        recentBytes += bytes
        while recent.count > HistoryParams.retained || recentBytes > HistoryParams.retainedBytes,
            let oldest = recent.popFirst()
        {
            recentBytes -= oldest.bytes
        }
    }

    /// Whether appended lines wait to be written.
    var hasUnwrittenLines: Bool { !unwritten.isEmpty }

    /// Writes every appended line to the file.
    func flush() {
        guard !unwritten.isEmpty else { return }
        writeWhole(unwritten)
        unwritten.removeAll(keepingCapacity: unwritten.count <= 1 << 16)
    }

    /// Writes what is gathered, then appends to a freshly opened `path` (SIGHUP, after the file was rotated away);
    /// on failure the old file stays in use and the error is thrown.
    func reopen(path: String) throws(JournalError) {
        flush()
        let fresh = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fresh >= 0 else { throw JournalError(path: path, code: errno) }
        if descriptor >= 0 { close(descriptor) }
        descriptor = fresh
    }

    /// The retained entries, oldest first, of one app or all (`HistoryPage` picks a page of them).
    func entries(app: String?) -> [JournalEntry] {
        recent.compactMap { app == nil || $0.entry.app == app ? $0.entry : nil }
    }

    /// The last `count` transitions of `app`, oldest first.
    func lastTransitions(of app: String, count: Int) -> [TransitionRecord] {
        var found: [TransitionRecord] = []
        for (entry, _) in recent.reversed() where found.count < count {
            if case .transition(let record) = entry, record.app == app { found.append(record) }
        }
        return found.reversed()
    }

    private func writeWhole(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    private static func makeParentFolders(of path: String) {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() {
            prefix += (prefix.isEmpty && path.hasPrefix("/") && component.isEmpty) ? "/" : "\(component)/"
            if !component.isEmpty { mkdir(prefix, 0o700) }
        }
    }
}

/// The journal file could not be opened.
struct JournalError: Error, CustomStringConvertible {
    let path: String
    let code: Int32
    var description: String { "cannot open the journal \(path): \(String(cString: strerror(code)))" }
}
