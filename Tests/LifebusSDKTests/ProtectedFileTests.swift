import Glibc
import Lifebus
import LifebusProtocol
import Testing

/// Files locked with the device: a `ProtectedFile` follows the broker's `protectedDataChanged` (SCENES.md §6). The
/// notification is handled on the SDK's I/O thread before the next callback on the connection, so a delegate
/// method sees it already.
@MainActor
@Suite(.hangGuard)
struct ProtectedFileTests {
    /// A fresh folder under /tmp for one test's files.
    private func folder() -> String {
        let path = "/tmp/lifebus-protected-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(path, 0o700)
        return path
    }

    private func remove(_ folder: String, _ names: [String]) {
        for name in names { unlink(folder + "/" + name) }
        rmdir(folder)
    }

    private func lock(_ harness: AppHarness, available: Bool) {
        harness.broker.notify(method: LifebusMethod.protectedDataChanged,
                              params: ProtectedDataParams(available: available).json)
    }

    @Test func aCompleteFileFailsWithEPERMWhileProtectedDataIsUnavailableAndWorksAgainAfter() async throws {
        let harness = try await AppHarness.launch()
        let directory = folder()
        defer { remove(directory, ["draft"]) }
        let draft = ProtectedFile(path: directory + "/draft", protection: .complete, of: harness.application)
        try draft.write("first")
        #expect(harness.application.isProtectedDataAvailable)
        lock(harness, available: false)
        var failures: [ProtectedFileError] = []
        harness.delegate.hook = { _, application in
            #expect(!application.isProtectedDataAvailable)
            do throws(ProtectedFileError) { try draft.write("second") } catch { failures.append(error) }
            do throws(ProtectedFileError) { _ = try draft.read() } catch { failures.append(error) }
            do throws(ProtectedFileError) { _ = try draft.open() } catch { failures.append(error) }
        }
        _ = try await harness.send(.didEnterBackground, state: .background).get()
        #expect(failures.map(\.code) == [.EPERM, .EPERM, .EPERM])
        #expect(failures.map(\.function) == ["write", "read", "open"])
        #expect(failures.allSatisfy { $0.lockedByDataProtection })
        #expect(failures.first?.description.contains("Operation not permitted") == true)
        lock(harness, available: true)
        harness.delegate.hook = { _, _ in try? draft.write("third") }
        _ = try await harness.send(.willEnterForeground, state: .inactive).get()
        #expect(harness.application.isProtectedDataAvailable)
        #expect(try draft.readText() == "third")
        try await harness.terminate()
    }

    /// B48, B50: an app suspended before the lock runs again while protected data is gone (the broker said so while
    /// it was suspended: `protectedDataChanged` goes to every connected app). The resume's net change,
    /// `protectedDataWillBecomeUnavailable`, finds a complete file locked; the net change of the user's return after
    /// the unlock, `protectedDataDidBecomeAvailable`, finds it readable.
    @Test func aCompleteFileFailsInTheNetChangeAResumeWhileLockedHearsAndWorksInTheUnlocksOne() async throws {
        let harness = try await AppHarness.launch()
        let directory = folder()
        defer { remove(directory, ["draft"]) }
        let draft = ProtectedFile(path: directory + "/draft", protection: .complete, of: harness.application)
        try draft.write("first")
        _ = try await harness.send(.willResignActive, state: .inactive).get()
        _ = try await harness.send(.didEnterBackground, state: .background).get()
        lock(harness, available: false)  // suspended (no callback) through the lock and its delay
        var reads: [String] = []
        harness.delegate.hook = { callback, application in
            guard callback == .protectedDataWillBecomeUnavailable || callback == .protectedDataDidBecomeAvailable
            else { return }
            let read: String
            do throws(ProtectedFileError) { read = try draft.readText() ?? "nothing" } catch { read = "\(error.code)" }
            reads.append("\(callback) \(application.isProtectedDataAvailable) \(read)")
        }
        _ = try await harness.send(.protectedDataWillBecomeUnavailable, state: .background).get()
        lock(harness, available: true)
        _ = try await harness.send(.willEnterForeground, state: .inactive).get()
        _ = try await harness.send(.protectedDataDidBecomeAvailable, state: .inactive).get()
        #expect(reads == ["protectedDataWillBecomeUnavailable false EPERM",
                          "protectedDataDidBecomeAvailable true first"])
        try await harness.terminate()
    }

    @Test func aCompleteUnlessOpenHandleOpenedBeforeTheLockStaysWritableWhileNewOpensFail() async throws {
        let harness = try await AppHarness.launch()
        let directory = folder()
        defer { remove(directory, ["log", "journal", "cache"]) }
        let application = harness.application
        let log = ProtectedFile(path: directory + "/log", protection: .completeUnlessOpen, of: application)
        let journal = ProtectedFile(path: directory + "/journal", protection: .complete, of: application)
        let cache = ProtectedFile(
            path: directory + "/cache", protection: .untilFirstUserAuthentication, of: application)
        var openLog = try log.open()
        var openJournal = try journal.open()
        lock(harness, available: false)
        // Answered after the notification was handled: the data is unavailable from here on.
        _ = try await harness.send(.didEnterBackground, state: .background).get()
        var outcomes: [String] = []
        do throws(ProtectedFileError) {
            try openLog.write(Array("kept".utf8))
            outcomes.append("open log written")
        } catch { outcomes.append("open log \(error.code)") }
        do throws(ProtectedFileError) { try openJournal.write(Array("lost".utf8)) } catch {
            outcomes.append("open journal \(error.code)")
        }
        do throws(ProtectedFileError) { _ = try log.open() } catch { outcomes.append("reopen log \(error.code)") }
        do throws(ProtectedFileError) {
            try cache.write("cached")
            outcomes.append("cache written")
        } catch { outcomes.append("cache \(error.code)") }
        openLog.close()
        openJournal.close()
        #expect(outcomes == ["open log written", "open journal EPERM", "reopen log EPERM", "cache written"])
        lock(harness, available: true)
        _ = try await harness.send(.willEnterForeground, state: .inactive).get()
        #expect(try log.readText() == "kept")
        #expect(try journal.readText() == "")
        try await harness.terminate()
    }
}
