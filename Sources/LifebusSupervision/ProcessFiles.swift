import Glibc
import LifebusIO

/// Reads the `/proc` and cgroup files of the memory meter into one reused buffer (no buffer allocated per read).
///
/// Owns the buffer (grown, never shrunk, at most `maximumBytes`) and frees it on release. Not thread-safe: one
/// reader per meter. Per-process files are read through a descriptor on the process's `/proc/PID` folder, which
/// names one process for its life (a pid reused later is a different folder): `stat` is read first and checked,
/// so the figures that follow are of the process that was checked, never of a later holder of its pid.
final class ProcessFiles {
    /// What one process's `stat` and memory files said.
    struct Reading {
        var stat: ProcStat
        /// The inode of the process's `/proc/PID` folder (see `Listed`).
        var inode: UInt64
        /// PSS in bytes (`smaps_rollup`'s `Pss:`), else `statm`'s resident bytes when `smaps_rollup` cannot be read
        /// (another user's process, a kernel before 4.14); `nil` when not wanted, or the process is a zombie or
        /// went before its memory was read.
        var bytes: Int?
    }

    /// The largest file read (a `cgroup.procs` of 100,000 pids fits).
    static let maximumBytes = 1 << 20
    private var buffer: UnsafeMutableRawBufferPointer
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init() {
        buffer = .allocate(byteCount: 16 << 10, alignment: 8)
    }

    deinit {
        buffer.deallocate()
    }

    /// Reads process `pid`'s `stat`, then, when it is not a zombie and `wanted` takes the stat, its memory in bytes
    /// from the same `/proc/PID` folder. `nil` when the process is gone.
    func read(_ pid: Int32, wanted: (ProcStat) -> Bool) -> Reading? {
        let folder = open("/proc/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        var info = stat()
        guard fstat(folder, &info) == 0, let count = read(at: folder, "stat"),
              let stat = ProcStat(pid: pid, text: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        else { return nil }
        var reading = Reading(stat: stat, inode: UInt64(info.st_ino), bytes: nil)
        guard !stat.isZombie, wanted(stat) else { return reading }
        if let count = read(at: folder, "smaps_rollup") {
            reading.bytes = kibibytes(after: "\nPss:", count: count).map { $0 << 10 } ?? 0
        } else if let count = read(at: folder, "statm") {
            reading.bytes = secondNumber(count: count).map { $0 * Self.pageSize }
        }
        return reading
    }

    /// The pids listed in a `cgroup.procs` file; `nil` when it cannot be read.
    func cgroupProcesses(_ folder: String) -> [Int32]? {
        guard let count = read(path: folder + "/cgroup.procs") else { return nil }
        var pids: [Int32] = []
        var value: Int32 = 0
        var digits = false
        for byte in UnsafeRawBufferPointer(rebasing: buffer[..<count]) {
            if byte >= 0x30, byte <= 0x39 {
                value = value &* 10 &+ Int32(byte - 0x30)
                digits = true
            } else if digits {
                pids.append(value)
                value = 0
                digits = false
            }
        }
        if digits { pids.append(value) }
        return pids
    }

    /// A cgroup's `memory.current` in bytes; `nil` when it has none (no memory controller) or it cannot be read.
    func cgroupMemory(_ folder: String) -> Int? {
        guard let count = read(path: folder + "/memory.current") else { return nil }
        return number(in: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }

    /// Reads file `name` of folder descriptor `folder` whole into the buffer; its length, `nil` on failure.
    private func read(at folder: Int32, _ name: String) -> Int? {
        let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return readWhole(descriptor)
    }

    private func read(path: String) -> Int? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return readWhole(descriptor)
    }

    /// Reads from offset 0 to the end (`pread`, so a kept descriptor could be read again), growing the buffer up to
    /// `maximumBytes`; `nil` on a read error or a longer file.
    private func readWhole(_ descriptor: Int32) -> Int? {
        var count = 0
        while true {
            if count == buffer.count {
                guard buffer.count < Self.maximumBytes else { return nil }
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 8)
                larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
                buffer.deallocate()
                buffer = larger
            }
            let step = pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(count))
            if step < 0, errno == EINTR { continue }
            guard step >= 0 else { return nil }
            if step == 0 { return count }
            count += step
        }
    }

    /// The number of kB after the line start `key` (e.g. `"\nPss:"`) in the first `count` bytes.
    private func kibibytes(after key: StaticString, count: Int) -> Int? {
        let text = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        let pattern = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        guard count >= pattern.count else { return nil }
        for start in 0...(count - pattern.count) where text[start] == pattern[0] {
            if text[start..<(start + pattern.count)].elementsEqual(pattern) {
                return number(in: UnsafeRawBufferPointer(rebasing: text[(start + pattern.count)...]))
            }
        }
        return nil
    }

    /// `statm`'s second field (resident pages).
    private func secondNumber(count: Int) -> Int? {
        let text = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        guard let space = text.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        return number(in: UnsafeRawBufferPointer(rebasing: text[(space + 1)...]))
    }

    /// The first decimal number in `text` after leading blanks; `nil` when there is none or it overflows.
    private func number(in text: UnsafeRawBufferPointer) -> Int? {
        var value = 0
        var digits = false
        for byte in text {
            if byte >= 0x30, byte <= 0x39 {
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                value = product + Int(byte - 0x30)
                digits = true
            } else if digits || (byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")) {
                break
            }
        }
        return digits ? value : nil
    }
}

extension ProcessFiles {
    /// A process folder of `/proc`: its pid and inode (`d_ino`). The inode is that of the folder a descriptor opened
    /// on it reports: the same number in a later listing means the same process (a reused pid gets a new folder).
    struct Listed {
        var pid: Int32
        var inode: UInt64
    }

    /// Every process `/proc` lists now (one `readdir` pass, no file read).
    static func listProcesses() -> [Listed] {
        var listed: [Listed] = []
        _ = FolderEntries.forEach(in: "/proc") { name, inode in
            if let pid = pid(named: name) { listed.append(Listed(pid: pid, inode: inode)) }
        }
        return listed
    }

    /// The pid a `/proc` entry named `name` stands for; `nil` for the others (`self`, `meminfo`, ...).
    private static func pid(named name: UnsafeBufferPointer<UInt8>) -> Int32? {
        var value: Int32 = 0
        for byte in name {
            guard byte >= 0x30, byte <= 0x39, value < Int32.max / 10 - 1 else { return nil }
            value = value * 10 + Int32(byte - 0x30)
        }
        return value > 0 ? value : nil
    }
}
