import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import Testing

/// What the broker reads and runs for `install` and `--apps DIR`: a file that is not a regular one is refused at
/// once, without blocking the loop (other clients are answered meanwhile); a folder, manifest or executable another
/// user could change is refused as sshd's `StrictModes` refuses, naming the path and why; a NUL in a string a
/// process would be given is refused naming the member.
@Suite struct InstallTrustTests {
    /// A folder of the test's own (mode 0700 unless changed), removed with all in it.
    final class Folder {
        let path: String

        init() {
            var template = Array("/tmp/lifebus-trust-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        }

        deinit { FolderEntries.removeTree(path) }

        /// Writes `text` to `name` with `mode`; returns the path.
        @discardableResult
        func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
            let target = "\(path)/\(name)"
            let file = fopen(target, "w")
            fputs(text, file)
            fclose(file)
            chmod(target, mode)
            return target
        }

        /// A manifest for app `id` running `executable`; returns its path.
        @discardableResult
        func manifest(_ id: String, executable: String = "/bin/sh", name: String = "app.json",
                      mode: mode_t = 0o644) -> String {
            write(name, #"{"id": "\#(id)", "executable": "\#(executable)"}"#, mode: mode)
        }
    }

    /// A controller of `broker`, introduced.
    static func controller(_ broker: BrokerFixture) throws -> RawClient {
        let client = try broker.connect()
        #expect(client.hello() != nil)
        return client
    }

    /// Sends `install` with `params` and returns the answer.
    static func install(_ client: RawClient, _ params: JSONValue) -> JSONValue? {
        client.sendLine(JSONValue.object([
            "jsonrpc": "2.0", "id": 1, "method": "install", "params": params,
        ]).jsonText)
        return parsed(client.readLine(timeout: .seconds(10)))
    }

    static func install(_ client: RawClient, path: String) -> JSONValue? {
        install(client, .object(["path": .string(path)]))
    }

    static func expectRefused(
        _ answer: JSONValue?, saying phrases: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let message = answer?["error"]?["message"]?.stringValue ?? ""
        #expect(answer?["error"]?["code"]?.int64Value == -32602, "\(answer?.jsonText ?? "no answer")",
                sourceLocation: sourceLocation)
        #expect(phrases.allSatisfy(message.contains), "\(message)", sourceLocation: sourceLocation)
    }

    enum Special: String, CaseIterable, CustomStringConvertible {
        case fifo, devZero, folder, sparseGiB
        var description: String { rawValue }
    }

    @Test(arguments: Special.allCases)
    func aFileThatIsNotARegularOneIsRefusedAtOnceWhileOthersAreAnswered(_ special: Special) throws {
        let folder = Folder()
        let (path, phrase): (String, String) = switch special {
        case .fifo: ("\(folder.path)/fifo.json", "it is a FIFO, not a regular file")
        case .devZero: ("/dev/zero", "it is a character device, not a regular file")
        case .folder: ("\(folder.path)/folder.json", "it is a folder, not a regular file")
        case .sparseGiB: ("\(folder.path)/sparse.json", "it holds 1073741824 bytes")
        }
        switch special {
        case .fifo: #expect(mkfifo(path, 0o600) == 0)
        case .devZero: break
        case .folder: #expect(mkdir(path, 0o700) == 0)
        case .sparseGiB: #expect(truncate(folder.write("sparse.json", ""), 1 << 30) == 0)
        }
        let broker = try BrokerFixture()
        let installer = try Self.controller(broker)
        let other = try Self.controller(broker)
        installer.sendLine(JSONValue.object([
            "jsonrpc": "2.0", "id": 1, "method": "install", "params": ["path": .string(path)],
        ]).jsonText)
        other.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"ping","params":{}}"#)
        let answer = parsed(installer.readLine(timeout: .seconds(5)))
        let pong = parsed(other.readLine(timeout: .seconds(5)))
        guard answer != nil, pong?["result"] != nil else {
            let blocked = "the broker's loop is blocked (it is killed): install answered \(answer != nil), "
                + "another client's ping answered \(pong != nil)"
            Issue.record(Comment(rawValue: blocked))
            return
        }
        Self.expectRefused(answer, saying: [path, phrase])
        try SupervisionCheck.run(broker)
    }

    @Test func aManifestOthersMayWriteOrInAFolderOthersMayWriteIsRefused() throws {
        let broker = try BrokerFixture()
        let client = try Self.controller(broker)
        let folder = Folder()
        let open = folder.manifest("com.example.Open", name: "open.json", mode: 0o666)
        Self.expectRefused(
            Self.install(client, path: open), saying: [open, "it may be changed by its group and others (mode 666)"])
        let group = folder.manifest("com.example.Group", name: "group.json", mode: 0o664)
        Self.expectRefused(Self.install(client, path: group), saying: [group, "may be changed by its group"])
        let shared = Folder()
        let inShared = shared.manifest("com.example.Shared")
        chmod(shared.path, 0o777)
        Self.expectRefused(
            Self.install(client, path: inShared),
            saying: [inShared, "\(shared.path) may be changed by its group and others (mode 777)"])
        let fine = folder.manifest("com.example.Fine", name: "fine.json")
        #expect(Self.install(client, path: fine)?["result"]?["id"]?.stringValue == "com.example.Fine")
        try SupervisionCheck.run(broker)
    }

    @Test func anExecutableOthersMayWriteIsRefusedAlsoInAnInlineManifest() throws {
        let broker = try BrokerFixture()
        let client = try Self.controller(broker)
        let folder = Folder()
        let script = folder.write("run.sh", "#!/bin/sh\n", mode: 0o777)
        let manifest = folder.manifest("com.example.Script", executable: script)
        Self.expectRefused(
            Self.install(client, path: manifest),
            saying: ["executable", script, "may be changed by its group and others (mode 777)"])
        let inline = Self.install(client, ["manifest": ["id": "com.example.Inline", "executable": .string(script)]])
        Self.expectRefused(inline, saying: ["executable", "refusing \(script)"])
        chmod(script, 0o755)
        #expect(Self.install(client, path: manifest)?["result"]?["id"]?.stringValue == "com.example.Script")
        try SupervisionCheck.run(broker)
    }

    @Test(.enabled(if: getuid() == 0, "only root can give a file to another user"))
    func aManifestOrExecutableAnotherUserOwnsIsRefusedNamingTheOwner() throws {
        let broker = try BrokerFixture()
        let client = try Self.controller(broker)
        let folder = Folder()
        let script = folder.write("run.sh", "#!/bin/sh\n", mode: 0o755)
        #expect(chown(script, 65534, 65534) == 0)
        let runsTheirs = folder.manifest("com.example.Theirs", executable: script, name: "theirs.json")
        Self.expectRefused(Self.install(client, path: runsTheirs), saying: [script, "belongs to uid 65534"])
        let theirManifest = folder.manifest("com.example.Mine", name: "mine.json")
        #expect(chown(theirManifest, 65534, 65534) == 0)
        Self.expectRefused(Self.install(client, path: theirManifest), saying: [theirManifest, "belongs to uid 65534"])
        try SupervisionCheck.run(broker)
    }

    @Test(.enabled(if: getuid() == 0, "only root can give a folder and a link to another user"))
    func aLinkedAppsFolderAnotherUserOwnsIsRefusedAtStartAndLogged() throws {
        let folder = Folder()
        let theirs = "\(folder.path)/theirs"
        #expect(mkdir(theirs, 0o777) == 0)
        chmod(theirs, 0o777)
        #expect(chown(theirs, 65534, 65534) == 0)
        folder.manifest("com.example.Planted", name: "theirs/app.json")
        let link = "\(folder.path)/apps"
        #expect(symlink(theirs, link) == 0)
        #expect(lchown(link, 65534, 65534) == 0)
        let broker = try BrokerFixture(arguments: ["--apps", link])
        var logged = ""
        while let line = broker.process.stderr.readLine(timeout: .seconds(10)) {
            logged = line
            if line.contains("refusing \(link)") { break }
        }
        #expect(logged.contains("refusing \(link)") && logged.contains("symbolic link of uid 65534"), "\(logged)")
        let apps = jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?.arrayValue
        #expect(apps?.isEmpty == true, "nothing was installed from it")
        try SupervisionCheck.run(broker)
    }

    /// A link of ours whose target runs through another user's link: they could repoint theirs at any time.
    @Test(.enabled(if: getuid() == 0, "only root can give a link to another user"))
    func aLinkInsideALinksTargetThatAnotherUserOwnsIsRefused() throws {
        let broker = try BrokerFixture()
        let client = try Self.controller(broker)
        let folder = Folder()
        let script = folder.write("run.sh", "#!/bin/sh\n", mode: 0o755)
        #expect(mkdir("\(folder.path)/inner", 0o755) == 0)
        let theirs = "\(folder.path)/inner/theirs"
        #expect(symlink(script, theirs) == 0)
        #expect(lchown(theirs, 65534, 65534) == 0)
        let ours = "\(folder.path)/ours"
        #expect(symlink("inner/theirs", ours) == 0)
        let manifest = folder.manifest("com.example.Chained", executable: ours)
        Self.expectRefused(Self.install(client, path: manifest), saying: [theirs, "symbolic link of uid 65534"])
        try SupervisionCheck.run(broker)
    }

    @Test func aLinkPlantedAtAnAppsLogFailsItsLaunchAndTheTargetIsUntouched() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Logged"
        let folder = Folder()
        let victim = folder.write("victim", "precious\n", mode: 0o600)
        let log = broker.logPath(id)
        #expect(mkdir(String(log[..<log.lastIndex(of: "/")!]), 0o700) == 0)
        #expect(symlink(victim, log) == 0)
        let manifest = folder.write("app.json", #"{"id": "\#(id)", "executable": "/bin/echo", "arguments": ["x"]}"#)
        #expect(try broker.cli(["install", manifest]).status == 0)
        let launch = try broker.cli(["fire", "launch", id, "--json"])
        #expect(launch.status == 4)
        let said = launch.err.contains("lifebus.LaunchFailed") && launch.err.contains("refusing \(log)")
            && launch.err.contains("symbolic link")
        #expect(said, "\(launch.err)")
        let failure = try AppsSupervisedTests.processRecords(broker, id).first
        #expect(failure?["event"]?.stringValue == "launchFailed", "journaled: \(failure?.jsonText ?? "")")
        #expect(try readLines(victim) == ["precious"], "nothing was written through the link")
        try SupervisionCheck.run(broker)
    }

    @Test func aNulInAStringAProcessWouldBeGivenIsRefusedNamingTheMember() throws {
        let broker = try BrokerFixture()
        let client = try Self.controller(broker)
        let argument = Self.install(client, ["manifest": [
            "id": "com.example.Nul", "executable": "/bin/sh", "arguments": ["-c", "echo a\u{0}b"],
        ]])
        Self.expectRefused(argument, saying: ["\"arguments\"", "NUL"])
        #expect(argument?["error"]?["data"]?["field"]?.stringValue == "arguments")
        let variable = Self.install(client, ["manifest": [
            "id": "com.example.Nul", "executable": "/bin/sh", "environment": ["GREETING": "hi\u{0}there"],
        ]])
        Self.expectRefused(variable, saying: ["\"environment\"", "GREETING", "NUL"])
        let executable = Self.install(client, ["manifest": ["id": "com.example.Nul", "executable": "/bin/sh\u{0}x"]])
        Self.expectRefused(executable, saying: ["\"executable\"", "NUL"])
        try SupervisionCheck.run(broker)
    }
}
