import Glibc
import LifebusJSON
import Testing

/// Issue 7 item 10's closing check, run at the end of every supervision test case: the case ends with exactly one
/// journal record per transition and per process event, no zombie child of the broker, and no process the broker
/// spawned (nor any member of its group) outliving it.
///
/// `run` stops the broker (SIGTERM, if a test has not already) and then reads its journal file, so every exit the
/// broker reaped is in it. Its checks, each an `#expect` at the caller's source location:
/// - while the broker runs, none of its children (`/proc/PID/task/*/children`) stays a zombie (state `Z` in
///   `/proc/CHILD/stat`): waited for, since a child may be between its exit and its reap;
/// - the journal is whole, `seq` never repeats and goes up by one, and no transition is journaled twice (one
///   record per app, callback, `from` state and `sentMs`);
/// - every process the broker started (`started`) has exactly one `exited` record, at most one `killed`, and
///   nothing after its `exited`; after the stop neither it nor its process group is left.
enum SupervisionCheck {
    /// `brokerPID` is the broker's own process when the fixture's is a wrapper (`unshare`): it gets the SIGTERM.
    static func run(
        _ broker: BrokerFixture, brokerPID: Int32? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if broker.process.isAlive {
            let pid = brokerPID ?? broker.process.pid
            let settled = AppsSupervisedTests.eventually { zombieChildren(of: pid).isEmpty }
            #expect(settled, "zombie children of the broker: \(zombieChildren(of: pid))",
                    sourceLocation: sourceLocation)
            if let brokerPID { kill(brokerPID, SIGTERM) }
            #expect(brokerPID == nil ? broker.stop() == 0 : broker.process.wait() == 0, "the broker stops cleanly",
                    sourceLocation: sourceLocation)
        }
        let journal = try JournalFileCheck(path: broker.journalPath)
        #expect(journal.isWhole, "broken journal lines \(journal.brokenLines)", sourceLocation: sourceLocation)
        #expect(Set(journal.seqs).count == journal.seqs.count && journal.seqsAreContiguous,
                "seq repeats or skips: \(journal.seqs)", sourceLocation: sourceLocation)
        let twice = duplicateTransitions(journal.entries)
        #expect(twice.isEmpty, "transitions journaled twice: \(twice)", sourceLocation: sourceLocation)
        for problem in processProblems(journal.entries) {
            Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
        }
        let started = journal.entries.filter { isProcess($0, "started") }.compactMap { $0["pid"]?.int64Value }
        for pid in started.map(Int32.init) {
            // The broker killed the group before it exited (what it left unreaped is init's to reap: only a live
            // member counts).
            let gone = AppsSupervisedTests.eventually { liveMembers(ofGroup: pid).isEmpty }
            #expect(gone, "process group \(pid) outlived the broker: \(liveMembers(ofGroup: pid))",
                    sourceLocation: sourceLocation)
        }
    }

    /// The variable `BrokerFixture` puts in its broker's environment (`LIFEBUS_TEST_BROKER=SOCKET`): every process
    /// the broker starts inherits it, and so do their descendants, whatever their parent, group or session. A
    /// program the test starts itself (a hand-started `subscribe`) does not have it.
    static let brokerMarker = "LIFEBUS_TEST_BROKER"

    /// `lifebusd` at `pid` or below it (a wrapper's child), found through `/proc/PID/task/*/children`.
    static func brokerPID(under pid: Int32) -> Int32? {
        var pending = [pid]
        while let next = pending.first {
            pending.removeFirst()
            let command = (try? readBytes("/proc/\(next)/cmdline"))?.split(separator: 0).first
            if let command, String(decoding: command, as: UTF8.self).hasSuffix("/lifebusd") { return next }
            pending += children(of: next)
        }
        return nil
    }

    /// The teardown sweep's first half, while the broker runs: none of its children stays a zombie (2 s).
    static func expectNoZombieChildren(of pid: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        let settled = AppsSupervisedTests.eventually(seconds: 2) { zombieChildren(of: pid).isEmpty }
        #expect(settled, "zombie children of the broker: \(zombieChildren(of: pid))", sourceLocation: sourceLocation)
    }

    /// The teardown sweep's second half, once the broker is gone: no process it started (its `brokerMarker` in the
    /// environment, `socketPath` its value) is alive 2 s later; any found is recorded and killed.
    static func expectNoSurvivor(ofBrokerOn socketPath: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let gone = AppsSupervisedTests.eventually(seconds: 2) { survivors(ofBrokerOn: socketPath).isEmpty }
        let left = survivors(ofBrokerOn: socketPath)
        let commands = left.map { pid in
            let bytes = (try? readBytes("/proc/\(pid)/cmdline")) ?? []
            return String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        }
        #expect(gone, "processes the broker started outlived it: \(left) \(commands)", sourceLocation: sourceLocation)
        for pid in left { kill(pid, SIGKILL) }
    }

    /// The live processes whose environment holds `LIFEBUS_TEST_BROKER=socketPath`.
    static func survivors(ofBrokerOn socketPath: String) -> [Int32] {
        let needle = Array("\(brokerMarker)=\(socketPath)".utf8)
        return fileNames(in: "/proc", endingWith: "").compactMap(Int32.init).filter { pid in
            guard pid != getpid(), processState(pid).map({ $0 != "Z" }) ?? false,
                  let environment = try? readBytes("/proc/\(pid)/environ")
            else { return false }
            return environment.split(separator: 0).contains { Array($0) == needle }
        }
    }

    /// The broker's children in state `Z` (exited, not reaped).
    static func zombieChildren(of pid: Int32) -> [Int32] {
        children(of: pid).filter { processState($0) == "Z" }
    }

    /// The pids in `/proc/PID/task/*/children`.
    static func children(of pid: Int32) -> [Int32] {
        fileNames(in: "/proc/\(pid)/task", endingWith: "").filter { !$0.hasPrefix(".") }.flatMap { task in
            let text = (try? readBytes("/proc/\(pid)/task/\(task)/children")) ?? []
            return String(decoding: text, as: UTF8.self).split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// The state letter of `/proc/PID/stat` (`R`, `S`, `T`, `Z`, …); `nil` when the process is gone.
    static func processState(_ pid: Int32) -> Character? {
        statFields(pid)?.first?.first
    }

    /// The processes of group `group` that are not zombies (`/proc/*/stat`, field 5 the group).
    static func liveMembers(ofGroup group: Int32) -> [Int32] {
        fileNames(in: "/proc", endingWith: "").compactMap(Int32.init).filter { pid in
            guard let fields = statFields(pid), fields.count > 2 else { return false }
            return fields[2] == "\(group)" && fields[0] != "Z"
        }
    }

    /// The fields of `/proc/PID/stat` after the command's closing parenthesis (state first); `nil` when gone.
    private static func statFields(_ pid: Int32) -> [Substring]? {
        guard let bytes = try? readBytes("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.isEmpty ? nil : fields
    }

    /// Transition records that repeat another's app, callback, `from` and `sentMs`.
    static func duplicateTransitions(_ entries: [JSONValue]) -> [String] {
        var seen: Set<String> = []
        var twice: [String] = []
        for entry in entries where entry["type"]?.stringValue == "transition" {
            let key = ["app", "callback", "from", "sentMs"].map { entry[$0]?.jsonText ?? "-" }.joined(separator: " ")
            if !seen.insert(key).inserted { twice.append(key) }
        }
        return twice
    }

    /// What is wrong with the process records of each pid the broker started.
    static func processProblems(_ entries: [JSONValue]) -> [String] {
        let records = entries.filter { $0["type"]?.stringValue == "process" }
        let started = Set(records.filter { isProcess($0, "started") }.compactMap { $0["pid"]?.int64Value })
        return started.sorted().compactMap { pid -> String? in
            let events = records.filter { $0["pid"]?.int64Value == pid }.map { $0["event"]?.stringValue ?? "?" }
            let exits = events.filter { $0 == "exited" }.count
            let kills = events.filter { $0 == "killed" }.count
            let afterExit = events.drop { $0 != "exited" }.dropFirst()
            guard events.filter({ $0 == "started" }).count != 1 || exits != 1 || kills > 1 || !afterExit.isEmpty
            else { return nil }
            return "pid \(pid): process events \(events), want one started, one exited, at most one killed"
        }
    }

    private static func isProcess(_ entry: JSONValue, _ event: String) -> Bool {
        entry["type"]?.stringValue == "process" && entry["event"]?.stringValue == event
    }
}
