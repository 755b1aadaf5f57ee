@testable import LifebusBrokerMachine
import LifebusLifecycle
import Testing

/// The process sub-machine on its own: one phase per app, so a spawn asked for and a process running are never
/// both, a launch during the previous process's reaping relaunches at its exit, and uninstalling stops that.
@Suite struct ProcessBookTests {
    static let notes: AppID = "com.example.Notes"

    static func installedBook() -> ProcessBook {
        var book = ProcessBook()
        book.installed[notes] = ProcessesTests.notes
        return book
    }

    @Test func aLaunchAsksForOneSpawnUntilItIsAnswered() {
        var book = Self.installedBook()
        let spawns = book.launch(Self.notes)
        #expect(spawns)
        let spawnsAgain = book.launch(Self.notes)
        #expect(!spawnsAgain, "a spawn is on its way")
        #expect(book.phases[Self.notes] == .spawning)
        book.processSpawned(Self.notes, pid: 900)
        #expect(book.spawnedPid(of: Self.notes) == 900)
        #expect(book.invariantViolations.isEmpty)
    }

    @Test func aLaunchWhileTheProcessIsReapedRelaunchesAtItsExitOnly() {
        var book = Self.installedBook()
        _ = book.launch(Self.notes)
        book.processSpawned(Self.notes, pid: 900)
        let spawnsNow = book.launch(Self.notes)
        #expect(!spawnsNow)
        let older = book.processReaped(Self.notes, pid: 899)
        #expect(older == nil, "an older process's exit is not this one's")
        let reaped = book.processReaped(Self.notes, pid: 900)
        #expect(reaped?.relaunchesAtExit == true)
        #expect(book.phases[Self.notes] == nil)
    }

    @Test func uninstallingStopsTheRelaunchButKeepsTheProcessUntilReaped() {
        var book = Self.installedBook()
        _ = book.launch(Self.notes)
        book.processSpawned(Self.notes, pid: 900)
        _ = book.launch(Self.notes)
        book.restoration[Self.notes] = "{}"
        let uninstalled = book.uninstall(Self.notes)
        #expect(uninstalled)
        #expect(book.spawned(Self.notes) == ProcessBook.SpawnedProcess(pid: 900))
        #expect(book.restoration[Self.notes] == nil)
        #expect(book.invariantViolations.isEmpty)
        let uninstalledAgain = book.uninstall(Self.notes)
        #expect(!uninstalledAgain)
    }

    @Test func aFailedSpawnLeavesNoPhaseAndKeepsTheFailure() {
        var book = Self.installedBook()
        _ = book.launch(Self.notes)
        book.spawnFailed(Self.notes, ProcessBook.Failure(path: "/bin/notes", errno: 2, detail: "gone"))
        #expect(book.phases[Self.notes] == nil)
        #expect(book.failures[Self.notes]?.errno == 2)
        let spawnsAgain = book.launch(Self.notes)
        #expect(spawnsAgain, "the next launch asks again")
    }

    @Test func onlyASpawnedProcessFreezesAndEachChangeIsReportedOnce() {
        var book = Self.installedBook()
        let frozenWithout = book.setFrozen(Self.notes, true)
        #expect(!frozenWithout, "no process")
        book.processSpawned(Self.notes, pid: 900)
        let frozen = book.setFrozen(Self.notes, true)
        #expect(frozen)
        let frozenAgain = book.setFrozen(Self.notes, true)
        #expect(!frozenAgain)
        #expect(book.isFrozen(Self.notes))
        let thawed = book.setFrozen(Self.notes, false)
        #expect(thawed)
    }

    @Test func aRelaunchOfAnAppNotInstalledIsAViolation() {
        var book = Self.installedBook()
        _ = book.launch(Self.notes)
        book.processSpawned(Self.notes, pid: 900)
        _ = book.launch(Self.notes)
        book.installed[Self.notes] = nil  // forgotten behind `uninstall`'s back
        #expect(book.invariantViolations == ["com.example.Notes relaunches at its exit but is not installed"])
    }
}
