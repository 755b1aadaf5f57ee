import Glibc
import LifebusIO
import Testing

/// A socket another user planted where a client would look for the broker: the client checks the default socket's
/// folder as the broker does (this user's, mode 0700, no symlink) and the listener's uid (`SO_PEERCRED`: this user
/// or root) before it sends a byte, and refuses naming the owner. A recording listener proves nothing was sent.
@Suite struct PlantedSocketTests {
    /// A listener that prints, one line per connection, `repr()` of the first bytes it received (`b''` when the
    /// client closed without sending any) and closes it, until it receives `PROBE`.
    static let recorder = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(sys.argv[1])
        s.listen(8)
        print("ready", flush=True)
        while True:
            c, _ = s.accept()
            data = c.recv(65536)
            c.close()
            print(repr(data), flush=True)
            if data == b"PROBE":
                break
        """

    /// A fresh folder standing in for `/tmp` (mode 1777) and an environment leaving the default socket to it.
    struct Scene {
        let temporary: String
        let folder: String
        let environment: [String: String]

        init() throws {
            var template = Array("/tmp/lifebus-planted-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw SpawnError(errno: errno) }
            temporary = String(cString: made)
            chmod(temporary, 0o1777)
            folder = "\(temporary)/lifebus-\(getuid())"
            environment = ["TMPDIR": temporary, "LIFEBUS_SOCKET": "", "XDG_RUNTIME_DIR": ""]
        }

        /// Removes the stand-in with all it holds, never following a planted link.
        func removeAll() {
            FolderEntries.removeTree(temporary)
        }
    }

    /// Starts the recorder at `path`, as `uid` when given (it listens after dropping to it, so `SO_PEERCRED`
    /// names that uid).
    static func startRecorder(at path: String, as uid: UInt32? = nil) throws -> ChildProcess {
        let python = ["/usr/bin/python3", "-c", recorder, path]
        let recorder = if let uid {
            try ChildProcess("/usr/bin/setpriv", ["--reuid", "\(uid)", "--regid", "\(uid)", "--clear-groups"] + python)
        } else {
            try ChildProcess(python[0], Array(python.dropFirst()))
        }
        #expect(recorder.stdout.readLine(timeout: .seconds(10)) == "ready", "\(recorder.stderr.readAll())")
        return recorder
    }

    /// What the recorder received before the test's own `PROBE` connection: one line per connection.
    static func receivedBeforeProbe(_ recorder: ChildProcess, at path: String) -> [String] {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(connected == 0, "the recorder still listens")
        _ = "PROBE".withCString { write(probe, $0, 5) }
        close(probe)
        var lines: [String] = []
        while let line = recorder.stdout.readLine(timeout: .seconds(10)), line != "b'PROBE'" { lines.append(line) }
        #expect(recorder.wait() == 0)
        return lines
    }

    private func expectRefusedUnsent(_ scene: Scene, socketFolder: String, saying reasons: [String]) throws {
        let socketPath = "\(socketFolder)/lifebus.sock"
        let recorder = try Self.startRecorder(at: socketPath)
        let ping = try runCLI(["ping"], environment: scene.environment)
        #expect(ping.status == 3, "\(ping.err)")
        let said = ping.err.contains("refusing the socket \(scene.folder)/lifebus.sock")
            && reasons.allSatisfy(ping.err.contains)
        #expect(said, "\(ping.err)")
        #expect(Self.receivedBeforeProbe(recorder, at: socketPath).isEmpty, "the client never connected")
    }

    @Test(.enabled(if: getuid() == 0, "only root can make a folder that belongs to another user"))
    func aDefaultFolderAnotherUserOwnsIsRefusedNamingItsOwner() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        #expect(mkdir(scene.folder, 0o700) == 0)
        #expect(chown(scene.folder, 65534, 65534) == 0)
        try expectRefusedUnsent(scene, socketFolder: scene.folder, saying: ["belongs to uid 65534"])
    }

    @Test func aDefaultFolderOpenToOthersIsRefused() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        #expect(mkdir(scene.folder, 0o700) == 0)
        chmod(scene.folder, 0o755)
        try expectRefusedUnsent(scene, socketFolder: scene.folder, saying: ["other users may use it", "mode 755"])
    }

    /// Only that nothing is sent: how `subscribe` exits when its first connection fails at once is its own
    /// concern (the SDK can return from `run` before `connectFailure` is set; issue 25 item 3).
    @Test func subscribeThroughTheSDKSendsNothingToADefaultFolderOpenToOthers() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        #expect(mkdir(scene.folder, 0o700) == 0)
        chmod(scene.folder, 0o755)
        let socketPath = "\(scene.folder)/lifebus.sock"
        let recorder = try Self.startRecorder(at: socketPath)
        _ = try runCLI(
            ["subscribe", "--id", "com.example.Planted", "--", "sleep", "30"], environment: scene.environment)
        #expect(Self.receivedBeforeProbe(recorder, at: socketPath).isEmpty, "the SDK never connected")
    }

    @Test func aSymlinkInThePlaceOfTheDefaultFolderIsRefused() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        let target = "\(scene.temporary)/elsewhere"
        #expect(mkdir(target, 0o700) == 0)
        #expect(symlink(target, scene.folder) == 0)
        try expectRefusedUnsent(scene, socketFolder: target, saying: ["symbolic link"])
    }

    @Test(.enabled(if: getuid() == 0, "only root can start a listener as another user"))
    func aListenerOfAnotherUserIsRefusedBeforeAnythingIsSent() throws {
        let scene = try Scene()
        defer { scene.removeAll() }
        let open = "\(scene.temporary)/open"
        #expect(mkdir(open, 0o777) == 0)
        chmod(open, 0o777)
        let socketPath = "\(open)/lifebus.sock"
        let recorder = try Self.startRecorder(at: socketPath, as: 65534)
        let ping = try runCLI(["ping", "--socket", socketPath])
        #expect(ping.status == 3, "\(ping.err)")
        #expect(ping.err.contains("refusing the socket \(socketPath)") && ping.err.contains("uid 65534"), "\(ping.err)")
        #expect(Self.receivedBeforeProbe(recorder, at: socketPath) == ["b''"], "connected, and sent nothing")
    }
}
