import Glibc
import LifebusContainment
import LifebusJSON
import LifebusProtocol
import LifebusSupervision
import LifebusTestFiles
import Testing

/// Manifests: a good one parses whole; each bad one is refused naming the file and the member; a folder loads the
/// good ones beside the bad ones.
@Suite struct ManifestTests {
    static let full = """
        {"$schema": "../Protocol/schemas/manifest.schema.json", "id": "com.example.Cache",
         "executable": "bin/cache", "arguments": ["--fast"], "environment": {"LEVEL": "3"},
         "workingDirectory": ".", "exitsOnSuspend": true, "backgroundModes": ["audio"],
         "launchInBackground": true, "backgroundTaskIdentifiers": ["com.example.Cache.refresh"],
         "memoryLimit": "200MiB"}
        """

    /// A folder with an executable `bin/cache`.
    private func folderWithProgram() -> TemporaryFolder {
        let folder = TemporaryFolder()
        mkdir(folder.file("bin"), 0o755)
        folder.write("bin/cache", "#!/bin/sh\nexit 0\n", mode: 0o755)
        return folder
    }

    @Test func aFullManifestParsesWithPathsFromItsFolder() throws {
        let folder = folderWithProgram()
        defer { folder.remove() }
        let manifest = try AppManifest.load(folder.write("cache.json", Self.full), environment: [:])
        #expect(manifest == AppManifest(
            id: "com.example.Cache", executable: folder.file("bin/cache"), arguments: ["--fast"],
            environment: ["LEVEL": "3"], workingDirectory: folder.path + "/.", exitsOnSuspend: true,
            backgroundModes: ["audio"], launchInBackground: true,
            backgroundTaskIdentifiers: ["com.example.Cache.refresh"], memoryLimit: 200 << 20))
        let request = try LaunchRequest(
            manifest: manifest, socketPath: "/run/bus.sock", logPath: "/tmp/x.log", hookAdapter: nil)
        let environment = request.childEnvironment(over: ["PATH": "/bin", "LEVEL": "1", "LIFEBUS_APP_ID": "evil"])
        #expect(environment == ["PATH": "/bin", "LEVEL": "3", "LIFEBUS_APP_ID": "com.example.Cache",
                                "LIFEBUS_SOCKET": "/run/bus.sock"])
    }

    @Test func aMinimalManifestTakesTheDefaults() throws {
        let manifest = try AppManifest.parse(Array(#"{"id": "a", "executable": "/bin/sh"}"#.utf8), file: "a.json",
                                             folder: "/", environment: [:])
        #expect(manifest == AppManifest(id: "a", executable: "/bin/sh"))
    }

    @Test(arguments: [
        (#"{"id": "a", "executable": "/bin/sh", "memoryLimt": "1MiB"}"#, "memoryLimt", "unknown member"),
        (#"{"executable": "/bin/sh"}"#, "id", "missing"),
        (#"{"id": "a"}"#, "executable", "missing"),
        (#"{"id": "a/b", "executable": "/bin/sh"}"#, "id", "is not an app id"),
        (#"{"id": "..", "executable": "/bin/sh"}"#, "id", "is not an app id"),
        (#"{"id": 7, "executable": "/bin/sh"}"#, "id", "must be a string"),
        (#"{"id": "a", "executable": "/no/such/program"}"#, "executable", "No such file or directory"),
        (#"{"id": "a", "executable": "/etc/passwd"}"#, "executable", "Permission denied"),
        (#"{"id": "a", "executable": ""}"#, "executable", "a program's path or name, not empty"),
        (#"{"id": "a", "executable": "/bin"}"#, "executable", "Permission denied"),
        (#"{"id": "a", "executable": "/bin/sh", "memoryLimit": "12 parsecs"}"#, "memoryLimit", "is not a size"),
        (#"{"id": "a", "executable": "/bin/sh", "memoryLimit": "99999999999TiB"}"#, "memoryLimit", "is not a size"),
        (#"{"id": "a", "executable": "/bin/sh", "memoryLimit": 200}"#, "memoryLimit", "must be a string"),
        (#"{"id": "a", "executable": "/bin/sh", "backgroundTaskIdentifiers": ["a b"]}"#, "backgroundTaskIdentifiers",
         "is not a task identifier"),
        (#"{"id": "a", "executable": "/bin/sh", "backgroundTaskIdentifiers": "x"}"#, "backgroundTaskIdentifiers",
         "must be"),
        (#"{"id": "a", "executable": "/bin/sh", "arguments": "-v"}"#, "arguments", "an array of strings"),
        (#"{"id": "a", "executable": "/bin/sh", "environment": {"A": 1}}"#, "environment", "an object of strings"),
        (#"{"id": "a", "executable": "/bin/sh", "environment": {"A=B": "1"}}"#, "environment", "not a variable"),
        (#"{"id": "a", "executable": "/bin/sh", "exitsOnSuspend": "yes"}"#, "exitsOnSuspend", "true or false"),
        (#"{"id": "a", "executable": "/bin/sh", "workingDirectory": "/bin/sh"}"#, "workingDirectory", "Not a dir"),
    ])
    func aBadManifestIsRefusedNamingFileAndMember(text: String, member: String, problem: String) throws {
        let error = #expect(throws: ManifestError.self) {
            _ = try AppManifest.parse(Array(text.utf8), file: "apps/bad.json", folder: "/", environment: [:])
        }
        #expect(error?.file == "apps/bad.json")
        #expect(error?.member == member)
        let description = error?.description ?? ""
        #expect(description.hasPrefix("apps/bad.json: member \"\(member)\": "), "\(description)")
        #expect(description.contains(problem), "\(description)")
    }

    @Test(arguments: [("{", "not JSON"), ("[1]", "a manifest is a JSON object")])
    func aFileThatIsNoManifestIsRefusedNamingTheFile(text: String, problem: String) {
        let error = #expect(throws: ManifestError.self) {
            _ = try AppManifest.parse(Array(text.utf8), file: "apps/bad.json", folder: "/", environment: [:])
        }
        #expect(error?.member == nil)
        #expect(error?.description.hasPrefix("apps/bad.json: \(problem)") == true, "\(String(describing: error))")
    }

    @Test func textThatIsNotJSONIsPlacedByLineAndColumnNotByteOffset() {
        let text = "{\"id\": \"com.example.X\",\n  \"executable\": \"/bin/sh\",\n  \"arguments\": [\"é\", oops]}"
        let error = #expect(throws: ManifestError.self) {
            _ = try AppManifest.parse(Array(text.utf8), file: "apps/bad.json", folder: "/", environment: [:])
        }
        #expect(error?.description == "apps/bad.json: not JSON at 3:22: unexpected character",
                "\(String(describing: error))")
    }

    @Test(arguments: [
        (#"{"id": "a", "executable": "/bin/sh", "arguments": ["x\u0000y"]}"#, "arguments", "NUL"),
        (#"{"id": "a", "executable": "/bin/sh\u0000z"}"#, "executable", "NUL"),
        (#"{"id": "a", "executable": "/bin/sh", "workingDirectory": "/tmp\u0000"}"#, "workingDirectory", "NUL"),
        (#"{"id": "a", "executable": "/bin/sh", "environment": {"A": "1\u0000"}}"#, "environment", "variable \"A\""),
        (#"{"id": "a", "executable": "/bin/sh", "environment": {"B\u0000C": "1"}}"#, "environment", "\\u0000C"),
    ])
    func aNulInAStringAProcessIsGivenIsRefusedNamingTheMember(text: String, member: String, problem: String) {
        let error = #expect(throws: ManifestError.self) {
            _ = try AppManifest.parse(Array(text.utf8), file: "apps/nul.json", folder: "/", environment: [:])
        }
        #expect(error?.member == member)
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
    }

    @Test func aFolderLoadsTheGoodManifestsAndRefusesTheBadOnes() throws {
        let folder = folderWithProgram()
        defer { folder.remove() }
        folder.write("1-cache.json", Self.full)
        folder.write("2-shell.json", #"{"id": "com.example.Shell", "executable": "/bin/sh"}"#)
        folder.write("3-again.json", #"{"id": "com.example.Cache", "executable": "/bin/sh"}"#)
        folder.write("4-broken.json", #"{"id": "com.example.Broken", "executable": "/bin/sh", "memoryLimit": "x"}"#)
        folder.write("notes.txt", "not a manifest")
        folder.write(".hidden.json", "{")
        let directory = try ManifestDirectory.load(folder.path, environment: [:])
        #expect(directory.manifests.map(\.id) == ["com.example.Cache", "com.example.Shell"])
        #expect(directory.errors.map(\.file) == [folder.file("3-again.json"), folder.file("4-broken.json")])
        #expect(directory.errors.map(\.member) == ["id", "memoryLimit"])
        #expect(directory.errors.first?.description.contains("already installed by \(folder.file("1-cache.json"))")
                == true)
        #expect(directory.manifest(for: "com.example.Shell")?.executable == "/bin/sh")
    }

    @Test func aFolderThatCannotBeListedIsAnError() {
        #expect(throws: SystemError.self) { _ = try ManifestDirectory.load("/no/such/folder", environment: [:]) }
    }

    @Test func aFolderOthersMayWriteIsRefusedWholeNamingItAndWhy() {
        let folder = folderWithProgram()
        defer { folder.remove() }
        folder.write("1-cache.json", Self.full)
        chmod(folder.path, 0o777)
        let error = #expect(throws: SystemError.self) { _ = try ManifestDirectory.load(folder.path, environment: [:]) }
        #expect(error?.description == "refusing \(folder.path): it may be changed by its group and others (mode 777) "
                + "(another user could change what runs)", "\(String(describing: error))")
    }

    @Test func aSymlinkedManifestIsNotFollowed() {
        let folder = folderWithProgram()
        defer { folder.remove() }
        let target = folder.write("cache.json", Self.full)
        symlink(target, folder.file("linked.json"))
        let error = #expect(throws: ManifestError.self) {
            _ = try AppManifest.load(folder.file("linked.json"), environment: [:])
        }
        #expect(error?.description.contains("it is a symbolic link") == true, "\(String(describing: error))")
    }

    @Test func theSchemaDeclaresExactlyTheMembersTheParserKnows() throws {
        let text = try #require(readText(repositoryRoot + "/Protocol/schemas/manifest.schema.json"))
        let schema = try JSONParser.parse(text)
        #expect(Set(try #require(schema["properties"]?.objectValue).keys) == Set(AppManifest.members))
        #expect(schema["required"] == ["id", "executable"])
        #expect(schema["additionalProperties"] == false)
    }
}
