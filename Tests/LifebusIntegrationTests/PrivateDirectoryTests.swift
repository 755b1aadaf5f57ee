import Glibc
import LifebusIO
import Testing

/// The default socket and journal in a shared temporary folder: a private folder of the user's own, created 0700,
/// and refused when anyone else could have prepared it. `$TMPDIR` stands in for `/tmp`, so each test has its own.
@Suite struct PrivateDirectoryTests {
    /// A fresh folder standing in for `/tmp`, the private folder the broker would use in it, and an environment
    /// that leaves every default to the broker.
    struct Scene {
        let temporary: String
        let folder: String
        let environment: [String: String]

        init() throws {
            var template = Array("/tmp/lifebus-test-tmp-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw SpawnError(errno: errno) }
            temporary = String(cString: made)
            chmod(temporary, 0o1777)
            folder = "\(temporary)/lifebus-\(getuid())"
            environment = ["TMPDIR": temporary, "LIFEBUS_SOCKET": "", "XDG_RUNTIME_DIR": "", "XDG_STATE_HOME": ""]
        }

        /// Removes the stand-in with all it holds, never following a planted link.
        func removeAll() {
            FolderEntries.removeTree(temporary)
        }

        /// Starts `lifebusd` with every default; returns its first stdout line, its stderr and exit status when it
        /// did not start (nil status while it runs).
        func start() throws -> (process: ChildProcess, listening: String?) {
            let process = try ChildProcess("lifebusd", [], environment: environment)
            return (process, process.stdout.readLine(timeout: .seconds(10)))
        }
    }

    @Test func theDefaultSocketAndJournalLiveInAFolderCreatedPrivate() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        let (broker, line) = try scene.start()
        #expect(line == "listening on \(scene.folder)/lifebus.sock")
        var status = stat()
        #expect(lstat(scene.folder, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFDIR)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(status.st_uid == getuid())
        let ping = try runCLI(["ping"], environment: scene.environment)
        #expect(ping.status == 0, "the CLI resolves the same path: \(ping.err)")
        broker.signal(SIGTERM)
        #expect(broker.wait() == 0)
        #expect(access("\(scene.folder)/journal.jsonl", F_OK) == 0, "the journal is in the same folder")
    }

    @Test func aFolderOpenToOthersIsRefused() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        #expect(mkdir(scene.folder, 0o700) == 0)
        chmod(scene.folder, 0o755)
        try expectRefusal(scene, saying: "other users may use it")
    }

    @Test func aSymlinkInThePlaceOfTheFolderIsRefusedAndItsTargetUntouched() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        let target = "\(scene.temporary)/elsewhere"
        #expect(mkdir(target, 0o700) == 0)
        #expect(symlink(target, scene.folder) == 0)
        try expectRefusal(scene, saying: "symbolic link")
        #expect(access("\(target)/lifebus.sock", F_OK) != 0, "nothing was created through the link")
        #expect(access("\(target)/journal.jsonl", F_OK) != 0)
    }

    @Test(.enabled(if: getuid() == 0, "only root can make a folder that belongs to another user"))
    func aFolderAnotherUserOwnsIsRefused() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        #expect(mkdir(scene.folder, 0o700) == 0)
        #expect(chown(scene.folder, 4242, 4242) == 0)
        try expectRefusal(scene, saying: "belongs to uid 4242")
    }

    private func expectRefusal(_ scene: Scene, saying reason: String) throws {
        let (broker, line) = try scene.start()
        let message = broker.stderr.readAll()
        #expect(line == nil, "the broker did not start: \(line ?? "")")
        #expect(broker.wait() == 1)
        #expect(message.contains("refusing to use \(scene.folder)") && message.contains(reason), "\(message)")
    }
}
