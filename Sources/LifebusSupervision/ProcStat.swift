import Glibc

/// The fields of `/proc/PID/stat` the supervisor needs: state, parent, process group and start time.
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

    /// Whether the process has exited and waits to be reaped.
    public var isZombie: Bool { state == "Z" || state == "X" }
    /// Whether it is stopped by a signal (`SIGSTOP`).
    public var isStopped: Bool { state == "T" }

    /// Parses the text of a stat file; `nil` when it is not one.
    public init?<Text: BidirectionalCollection<UInt8>>(pid: Int32, text: Text) {
        guard let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After `)`: state is field 3 of the file, so field n is the (n - 2)th word; starttime is field 22.
        var words: [Text.SubSequence] = []
        words.reserveCapacity(20)
        for word in text[text.index(after: close)...].split(separator: UInt8(ascii: " ")) {
            words.append(word)
            if words.count == 20 { break }
        }
        guard words.count == 20, let state = words[0].first, let parent = Self.number(words[1]),
              let group = Self.number(words[2]), let startTime = Self.number(words[19])
        else { return nil }
        self.pid = pid
        self.state = Character(UnicodeScalar(state))
        self.parent = Int32(truncatingIfNeeded: parent)
        self.group = Int32(truncatingIfNeeded: group)
        self.startTime = startTime
    }

    /// An unsigned decimal number (the fields read here are never negative), `nil` for anything else.
    private static func number(_ digits: some Collection<UInt8>) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (sum, carry) = product.addingReportingOverflow(UInt64(byte - 0x30))
            guard !carry else { return nil }
            value = sum
        }
        return value
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
