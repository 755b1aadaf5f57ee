import Glibc
import LifebusContainment
import LifebusTestFiles
import Testing

/// The apps' logs folder may lie in a shared folder beside the journal while the broker runs as root: links another
/// user planted there are refused, never written, copied over or truncated through, and the folder itself must be
/// the broker's user's alone.
@Suite struct AppLogTrustTests {
    /// A folder with `logs/` (0700) and a victim file outside it.
    struct Scene {
        let folder = TemporaryFolder()
        let victim: String
        let files: AppLogFiles

        init(maxBytes: Int = 4) {
            victim = folder.write("victim", "precious\n", mode: 0o600)
            mkdir(folder.file("logs"), 0o700)
            files = AppLogFiles(folder: folder.file("logs"), maxBytes: maxBytes)
        }
    }

    private func expectRefusal(_ body: () throws(SystemError) -> Void, saying reason: String) {
        do {
            try body()
            Issue.record("not refused")
        } catch {
            #expect(error.refusal != nil && "\(error)".contains(reason), "\(error)")
        }
    }

    @Test func aLinkPlantedAtTheLiveLogIsRefusedAndItsTargetUntouched() {
        let scene = Scene()
        defer { scene.folder.remove() }
        #expect(symlink(scene.victim, scene.folder.file("logs/a.log")) == 0)
        expectRefusal({ () throws(SystemError) in _ = try scene.files.prepare(for: "a") }, saying: "symbolic link")
        #expect(scene.folder.read("victim") == "precious\n")
    }

    @Test func aLinkPlantedAtThePreviousGenerationIsRefusedAndNothingIsCopiedOrTruncated() {
        let scene = Scene()
        defer { scene.folder.remove() }
        scene.folder.write("logs/a.log", "more than four bytes\n")
        #expect(symlink(scene.victim, scene.folder.file("logs/a.log.1")) == 0)
        expectRefusal({ () throws(SystemError) in try scene.files.rotateIfOver(for: "a") }, saying: "symbolic link")
        expectRefusal({ () throws(SystemError) in _ = try scene.files.prepare(for: "a") }, saying: "symbolic link")
        #expect(scene.folder.read("victim") == "precious\n")
        #expect(scene.folder.read("logs/a.log") == "more than four bytes\n", "the live log is kept")
    }

    @Test func aHardLinkAtThePreviousGenerationIsNotTruncated() {
        let scene = Scene()
        defer { scene.folder.remove() }
        scene.folder.write("logs/a.log", "more than four bytes\n")
        #expect(link(scene.victim, scene.folder.file("logs/a.log.1")) == 0)
        expectRefusal({ () throws(SystemError) in try scene.files.rotateIfOver(for: "a") }, saying: "2 links")
        #expect(scene.folder.read("victim") == "precious\n")
    }

    @Test func aLogThatIsNotARegularFileIsRefused() {
        let scene = Scene()
        defer { scene.folder.remove() }
        #expect(mkfifo(scene.folder.file("logs/a.log"), 0o600) == 0)
        expectRefusal({ () throws(SystemError) in _ = try scene.files.prepare(for: "a") }, saying: "a FIFO")
    }

    @Test func aLogsFolderOpenToOthersOrALinkIsRefused() throws {
        let scene = Scene()
        defer { scene.folder.remove() }
        chmod(scene.folder.file("logs"), 0o777)
        expectRefusal({ () throws(SystemError) in _ = try scene.files.prepare(for: "a") }, saying: "mode 777")
        let linked = AppLogFiles(folder: scene.folder.file("linked"))
        #expect(symlink(scene.folder.file("logs"), linked.folder) == 0)
        expectRefusal({ () throws(SystemError) in _ = try linked.prepare(for: "a") }, saying: "symbolic link")
        #expect(scene.folder.read("logs/a.log") == nil, "nothing was created through the link")
    }

    @Test(.enabled(if: getuid() == 0, "only root can make a folder that belongs to another user"))
    func aLogsFolderAnotherUserOwnsIsRefused() {
        let scene = Scene()
        defer { scene.folder.remove() }
        #expect(chown(scene.folder.file("logs"), 65534, 65534) == 0)
        expectRefusal({ () throws(SystemError) in _ = try scene.files.prepare(for: "a") }, saying: "uid 65534")
    }

    @Test func aFreshLogsFolderIsCreatedPrivateWithTheLogInIt() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let files = AppLogFiles(folder: folder.file("logs"))
        #expect(try files.prepare(for: "a") == folder.file("logs/a.log"))
        var status = stat()
        #expect(lstat(folder.file("logs"), &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(lstat(folder.file("logs/a.log"), &status) == 0 && status.st_mode & S_IFMT == S_IFREG)
    }
}
