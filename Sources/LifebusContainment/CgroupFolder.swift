import Glibc

/// One cgroup v2 folder the broker made (its own `lifebus-PID`, or one app run's `run-N` inside it), and the core
/// files it drives there: `cgroup.kill` (SIGKILL to every process inside, frozen ones too, atomically against
/// forks), `cgroup.freeze`, `cgroup.events` (`populated`) and `cgroup.procs`.
///
/// A plain value naming the folder; it owns nothing open. Invariant: only folders this process created are
/// written or removed, and an empty `lifebus-PID` that a dead process of the same pid left behind.
package struct CgroupFolder: Equatable, Sendable {
    package let path: String

    /// Creates the folder (`mkdir`, 0755). Throws the errno, naming the path.
    static func create(_ path: String) throws(SystemError) -> CgroupFolder {
        guard mkdir(path, 0o755) == 0 else { throw SystemError("mkdir", path: path) }
        return CgroupFolder(path: path)
    }

    /// Creates the folder; with `replacingStale`, a folder of that name already there (left by a dead process that
    /// had this pid) is removed first if it is empty, and the `mkdir` tried again.
    static func create(_ path: String, replacingStale: Bool) throws(SystemError) -> CgroupFolder {
        do {
            return try create(path)
        } catch where replacingStale && error.code == EEXIST && CgroupFolder(path: path).remove() {
            return try create(path)
        }
    }

    /// The file a process writes its pid (or `0`, itself) to in order to move there.
    var processesFile: String { path + "/cgroup.procs" }

    /// Kills every process inside, and inside its sub-folders (`cgroup.kill`); `false` when the write failed.
    @discardableResult
    func kill() -> Bool {
        write("cgroup.kill", "1")
    }

    /// Freezes (`true`) or thaws every process inside (`cgroup.freeze`); `false` when the write failed.
    @discardableResult
    func freeze(_ frozen: Bool) -> Bool {
        write("cgroup.freeze", frozen ? "1" : "0")
    }

    /// Whether a live process is inside or below (`populated 1` in `cgroup.events`); `false` once it is gone.
    var isPopulated: Bool {
        guard let bytes = try? SystemFiles.read(path + "/cgroup.events", limit: 4096) else { return false }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").contains("populated 1")
    }

    /// How many processes are inside (the lines of `cgroup.procs`).
    var processCount: Int {
        guard let bytes = try? SystemFiles.read(processesFile, limit: 1 << 20) else { return 0 }
        return bytes.split(separator: 0x0A).count
    }

    /// Removes the sub-folders, then the folder (`rmdir`, which the kernel refuses while a process is inside);
    /// `true` when it is gone.
    @discardableResult
    package func remove() -> Bool {
        for name in (try? SystemFiles.names(in: path)) ?? [] where SystemFiles.isFolder(path + "/" + name) {
            CgroupFolder(path: path + "/" + name).remove()
        }
        return rmdir(path) == 0 || errno == ENOENT
    }

    private func write(_ file: String, _ value: String) -> Bool {
        let descriptor = open(path + "/" + file, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return Glibc.write(descriptor, value, value.utf8.count) == value.utf8.count
    }
}

/// Where cgroup v2 is mounted and which of its folders holds this process: `/proc/self/mountinfo` (the `cgroup2`
/// line; `/sys/fs/cgroup` on a pure-v2 host, `/sys/fs/cgroup/unified` on a hybrid one) and `/proc/self/cgroup`
/// (its `0::/PATH` line). Stateless.
enum CgroupHierarchy {
    /// The folder of this process's cgroup, or why there is none usable.
    static func ownFolder() -> Result<String, CgroupUnavailable> {
        guard let mount = mountPoint() else { return .failure(.init("no cgroup2 file system is mounted")) }
        guard let bytes = try? SystemFiles.read("/proc/self/cgroup", limit: 64 * 1024),
              let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first(where: {
                  $0.hasPrefix("0::/") })
        else { return .failure(.init("/proc/self/cgroup has no cgroup v2 line")) }
        let own = String(line.dropFirst(3))
        return .success(own == "/" ? mount : mount + own)
    }

    /// The mount point of the `cgroup2` file system (the fifth field of its `mountinfo` line).
    static func mountPoint() -> String? {
        guard let bytes = try? SystemFiles.read("/proc/self/mountinfo", limit: 1 << 20) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let halves = line.split(separator: " - ", maxSplits: 1)
            guard halves.count == 2, halves[1].hasPrefix("cgroup2 ") else { continue }
            let fields = halves[0].split(separator: " ")
            if fields.count > 4 { return String(fields[4]) }
        }
        return nil
    }
}

extension CgroupHierarchy {
    /// The folder holding `path` (`nil` for a path without one).
    static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }
}

/// Why the broker does not contain its apps in cgroups (it uses its subreaper then).
struct CgroupUnavailable: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
