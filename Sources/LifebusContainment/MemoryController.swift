import Glibc

/// Turns the cgroup v2 memory controller on for the runs of a containment, so that each `run-N` has its own
/// `memory.current`: `+memory` goes to `FOLDER/cgroup.subtree_control` (the runs are FOLDER's children) once the
/// parent lists `memory` in `cgroup.controllers`, after `+memory` to the parent's own `cgroup.subtree_control` when
/// it is not on there yet (which the kernel refuses while the parent holds processes, as it does the broker's own
/// cgroup: the "no internal processes" rule; then the runs have no `memory.current` and memory is read as PSS).
///
/// Stateless; it reads and writes the files of the two folders given, so a test can hand it a tree of its own.
enum MemoryController {
    /// Enables the controller for `folder`'s children; `nil` when it is on, else why not.
    static func enable(below parent: String, in folder: String) -> String? {
        guard words(parent + "/cgroup.controllers").contains("memory") else {
            return "\(parent)/cgroup.controllers does not list memory"
        }
        if !words(parent + "/cgroup.subtree_control").contains("memory"),
           let problem = write("+memory", to: parent + "/cgroup.subtree_control") {
            return problem
        }
        return write("+memory", to: folder + "/cgroup.subtree_control")
    }

    private static func words(_ path: String) -> [Substring] {
        guard let bytes = try? SystemFiles.read(path, limit: 4096) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
    }

    /// Writes `value` to `path` in one `write`; `nil` when it was taken, else the error.
    private static func write(_ value: String, to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "open \(path): \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        guard Glibc.write(descriptor, value, value.utf8.count) == value.utf8.count else {
            return "write \(value) to \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
