import Glibc
import LifebusContainment

/// Signals to a whole process group without ever reaching a process outside it.
///
/// Stateless. Two cases, chosen by the caller, which knows whether the group's leader has been reaped:
/// - leader not reaped: its pid is still taken (alive or zombie), so no other process can hold it or lead a group
///   of that number, and `kill(-group)` is exact (and atomic against forks);
/// - leader reaped: the group number is pinned only by live members, so each member found in `/proc` gets a pidfd
///   that is checked to still be in the group after opening, and the signal goes through the pidfd.
enum GroupSignal {
    /// `kill(-group, signal)` for a group whose leader the caller has not reaped. Returns the errno, or `nil`.
    static func toPinnedGroup(_ group: Int32, _ signal: Int32) -> Int32? {
        kill(-group, signal) == 0 ? nil : errno
    }

    /// Sends `signal` through a pidfd each to the live members of `group` (leader already reaped) not in `skipping`
    /// (pid and start time). Returns the members signalled.
    @discardableResult
    static func toMembers(of group: Int32, _ signal: Int32, skipping: Set<Member> = []) -> [Member] {
        var signalled: [Member] = []
        for found in ProcStat.members(ofGroup: group) where !skipping.contains(Member(found)) {
            guard let handle = try? ProcessDescriptor.open(found.pid) else { continue }  // gone meanwhile
            // The pid may have been reused between the listing and the open: check the process the pidfd holds.
            guard let now = ProcStat.read(found.pid), now.group == group, now.startTime == found.startTime,
                  !handle.hasExited
            else { continue }
            if handle.send(signal) == nil { signalled.append(Member(found)) }
        }
        return signalled
    }

    /// Kills every live member of `group` (leader already reaped), looking again until a pass finds no member not
    /// yet killed, so one forking meanwhile does not escape; at most `rounds` passes. Returns how many were killed.
    @discardableResult
    static func killMembers(of group: Int32, rounds: Int = 20) -> Int {
        // Signal 0 delivers nothing: it only asks whether the group has a member, which spares the `/proc` pass
        // (milliseconds) in the usual case of an app that leaves nothing behind.
        guard kill(-group, 0) == 0 || errno == EPERM else { return 0 }
        var killed: Set<Member> = []
        for _ in 0..<rounds {
            let now = toMembers(of: group, SIGKILL, skipping: killed)
            guard !now.isEmpty else { break }
            killed.formUnion(now)
        }
        return killed.count
    }

    /// One process for the boot's life: its pid and start time.
    struct Member: Hashable {
        let pid: Int32
        let startTime: UInt64

        init(_ stat: ProcStat) {
            pid = stat.pid
            startTime = stat.startTime
        }
    }
}
