import Glibc
import LifebusContainment

/// The fields of `/proc/PID/stat` the supervisor needs: state, parent, process group, start time, and what the
/// memory meter watches for change (faults, resident pages).
///
/// A plain value read in one go. `comm` (field 2) may hold spaces and parentheses, so the fields are counted from
/// the last `)`. `startTime` is in clock ticks since boot: with the pid it names one process for the boot's life.
public struct ProcStat: Sendable, Equatable {
    public let pid: Int32
    /// `R`, `S`, `D`, `T` (stopped), `Z` (zombie), …
    public let state: Character
    public let parent: Int32
    public let group: Int32
    public let startTime: UInt64
    /// Page faults so far, minor plus major (fields 10 and 12): a process that changed its own memory faulted or
    /// changed its resident pages.
    public let faults: UInt64
    /// Resident pages (field 24).
    public let residentPages: UInt64

    /// Whether the process has exited and waits to be reaped.
    public var isZombie: Bool { state == "Z" || state == "X" }
    /// Whether it is stopped by a signal (`SIGSTOP`).
    public var isStopped: Bool { state == "T" }

    /// Parses the text of a stat file; `nil` when it is not one. Allocates nothing.
    public init?<Text: BidirectionalCollection<UInt8>>(pid: Int32, text: Text) {
        guard let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After `)`: field n of the file is word n - 3 (the state, field 3, is word 0); the last one read is rss.
        var fields = Fields()
        for byte in text[text.index(after: close)...] {
            fields.take(byte)
            if fields.word > 21 { break }
        }
        fields.endWord()
        guard let state = fields.state, let parent = fields.parent, let group = fields.group,
              let startTime = fields.startTime, let minor = fields.minorFaults, let major = fields.majorFaults,
              let residentPages = fields.residentPages
        else { return nil }
        self.pid = pid
        self.state = Character(UnicodeScalar(state))
        self.parent = Int32(truncatingIfNeeded: parent)
        self.group = Int32(truncatingIfNeeded: group)
        self.startTime = startTime
        faults = minor &+ major
        self.residentPages = residentPages
    }

    /// The words of a stat file after `)`, fed a byte at a time: the ones kept, as unsigned decimal numbers
    /// (`nil` when a kept word is not one).
    private struct Fields {
        var word = -1
        var state: UInt8?
        var parent: UInt64?, group: UInt64?, minorFaults: UInt64?, majorFaults: UInt64?
        var startTime: UInt64?, residentPages: UInt64?
        private var inWord = false
        private var value: UInt64? = 0

        mutating func take(_ byte: UInt8) {
            guard byte != UInt8(ascii: " "), byte != UInt8(ascii: "\n") else {
                endWord()
                return
            }
            if !inWord {
                inWord = true
                word += 1
                value = 0
                if word == 0 { state = byte }
            }
            guard let current = value, byte >= 0x30, byte <= 0x39 else {
                value = nil
                return
            }
            let (product, overflow) = current.multipliedReportingOverflow(by: 10)
            let (sum, carry) = product.addingReportingOverflow(UInt64(byte - 0x30))
            value = overflow || carry ? nil : sum
        }

        mutating func endWord() {
            guard inWord else { return }
            inWord = false
            switch word {
            case 1: parent = value
            case 2: group = value
            case 7: minorFaults = value
            case 9: majorFaults = value
            case 19: startTime = value
            case 21: residentPages = value
            default: break
            }
        }
    }

    /// Reads `/proc/PID/stat`; `nil` when the process is gone (or the file is unreadable).
    public static func read(_ pid: Int32) -> ProcStat? {
        guard let text = try? SystemFiles.read("/proc/\(pid)/stat", limit: 4096) else { return nil }
        return ProcStat(pid: pid, text: text)
    }

    /// Every process `/proc` lists now (pids only; a process may be gone by the time it is read).
    public static func allProcessIDs() -> [Int32] {
        ((try? SystemFiles.names(in: "/proc")) ?? []).compactMap { Int32($0) }
    }

    /// The live (not zombie) members of process group `group`, read from every `/proc/*/stat`.
    public static func members(ofGroup group: Int32) -> [ProcStat] {
        allProcessIDs().compactMap(read).filter { $0.group == group && !$0.isZombie }
    }
}
