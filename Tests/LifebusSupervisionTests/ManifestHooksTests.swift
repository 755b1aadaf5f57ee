import Glibc
import LifebusContainment
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusSupervision
import LifebusTestFiles
import Testing

/// A program that does not speak the protocol, installed as it is (`Protocol/README.md` §16.1): `${VAR}`s expanded
/// from the installing client's variables, a bare executable found on its `PATH`, and `hooks` that make the launch
/// `lifebus subscribe --id ID --on CALLBACK=COMMAND… -- PROGRAM ARGS…`.
@Suite struct ManifestHooksTests {
    private func parse(_ text: String, _ environment: [String: String] = [:]) throws(ManifestError) -> AppManifest {
        try AppManifest.parse(Array(text.utf8), file: "apps/redis.json", folder: "/srv", environment: environment)
    }

    @Test func variablesAreExpandedInEveryMemberThatTakesThem() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let text = """
            {"id": "io.redis.Server", "executable": "${BIN:-/bin}/sh", "arguments": ["--port", "${PORT:-6390}",
             "--dir", "${DIR}", "$$HOME"], "environment": {"DATA": "${DIR}/data"}, "workingDirectory": "${DIR}",
             "hooks": {"didEnterBackground": "redis-cli -p ${PORT:-6390} save"}}
            """
        let manifest = try parse(text, ["DIR": folder.path, "UNUSED": "x"])
        #expect(manifest.executable == "/bin/sh")
        #expect(manifest.arguments == ["--port", "6390", "--dir", folder.path, "$HOME"])
        #expect(manifest.environment == ["DATA": folder.path + "/data"])
        #expect(manifest.workingDirectory == folder.path)
        #expect(manifest.hooks == [.didEnterBackground: "redis-cli -p 6390 save"])
    }

    @Test(arguments: [
        (#"{"id": "a", "executable": "/bin/sh", "arguments": ["${DIR}"]}"#, "arguments", "\"DIR\" is not set"),
        (#"{"id": "a", "executable": "${SHELL_PATH}"}"#, "executable", "\"SHELL_PATH\" is not set"),
        (#"{"id": "a", "executable": "/bin/sh", "environment": {"A": "${B"}}"#, "environment", "\"${B\" is not closed"),
        (#"{"id": "a", "executable": "/bin/sh", "workingDirectory": "${1X}"}"#, "workingDirectory", "\"1X\" is not"),
        (#"{"id": "a", "executable": "/bin/sh", "hooks": {"willTerminate": "save ${N}"}}"#, "hooks", "\"N\" is not"),
        (#"{"id": "a", "executable": "/bin/sh", "hooks": {"didEnterBackgrund": "x"}}"#, "hooks", "not a callback"),
        (#"{"id": "a", "executable": "/bin/sh", "hooks": {"willTerminate": " "}}"#, "hooks", "has no command"),
        (#"{"id": "a", "executable": "/bin/sh", "hooks": {"willTerminate": 1}}"#, "hooks", "an object of strings"),
        (#"{"id": "a", "executable": "/bin/sh", "hooks": ["x"]}"#, "hooks", "an object of strings"),
        (#"{"id": "a", "executable": "sh"}"#, "executable", "no PATH was given"),
    ])
    func aRefusalNamesTheFileTheMemberAndTheVariable(text: String, member: String, problem: String) {
        let error = #expect(throws: ManifestError.self) { try parse(text) }
        #expect(error?.member == member)
        let description = error?.description ?? ""
        #expect(description.hasPrefix("apps/redis.json: member \"\(member)\": "), "\(description)")
        #expect(description.contains(problem), "\(description)")
    }

    @Test func anExecutableWithoutASlashIsTheFirstOnTheClientsPath() throws {
        let first = TemporaryFolder()
        let second = TemporaryFolder()
        defer { first.remove(); second.remove() }
        first.write("tool", "not executable", mode: 0o644)
        let found = second.write("tool", "#!/bin/sh\n", mode: 0o755)
        let path = "relative/bin:\(first.path)::\(second.path)"
        #expect(try parse(#"{"id": "a", "executable": "tool"}"#, ["PATH": path]).executable == found)
        let error = #expect(throws: ManifestError.self) {
            try parse(#"{"id": "a", "executable": "no-such-tool"}"#, ["PATH": path])
        }
        #expect(error?.description.contains("\"no-such-tool\" is not an executable on PATH (\(path))") == true)
    }

    @Test func aRelativeExecutableWithASlashStaysRelativeToTheManifestsFolder() {
        let error = #expect(throws: ManifestError.self) {
            try parse(#"{"id": "a", "executable": "bin/server"}"#, ["PATH": "/bin"])
        }
        #expect(error?.description.contains("/srv/bin/server") == true, "\(String(describing: error))")
    }

    @Test func hooksRunTheProgramUnderSubscribeInCallbackOrder() throws {
        let manifest = try parse("""
            {"id": "io.redis.Server", "executable": "/bin/sh", "arguments": ["-c", "exec sleep 9"],
             "hooks": {"willTerminate": "redis-cli save", "didEnterBackground": "redis-cli -p 1 save"}}
            """)
        let request = try LaunchRequest(
            manifest: manifest, socketPath: "/run/bus.sock", logPath: "/tmp/x.log", hookAdapter: "/opt/bin/lifebus")
        #expect(request.executable == "/opt/bin/lifebus")
        #expect(request.arguments == [
            "subscribe", "--id", "io.redis.Server", "--on", "didEnterBackground=redis-cli -p 1 save",
            "--on", "willTerminate=redis-cli save", "--", "/bin/sh", "-c", "exec sleep 9",
        ])
        let plain = try LaunchRequest(
            manifest: AppManifest(id: "a", executable: "/bin/sh", arguments: ["-x"]), socketPath: "/s", logPath: "/l",
            hookAdapter: "/opt/bin/lifebus")
        #expect(plain.executable == "/bin/sh" && plain.arguments == ["-x"], "no hooks: the program itself")
    }

    @Test func theManifestsFlagsAreSaidInSubscribesHello() throws {
        let manifest = AppManifest(
            id: "a", executable: "/bin/sh", exitsOnSuspend: true, backgroundModes: ["audio", "no-such-mode"],
            launchInBackground: true, hooks: [.willTerminate: "true"])
        let request = try LaunchRequest(manifest: manifest, socketPath: "/s", logPath: "/l", hookAdapter: "/b/lifebus")
        #expect(request.arguments == [
            "subscribe", "--id", "a", "--exits-on-suspend", "--background-mode", "audio", "--launch-in-background",
            "--on", "willTerminate=true", "--", "/bin/sh",
        ], "a mode subscribe does not know is left to the manifest, whose flags win anyway")
    }

    @Test func hooksWithoutAnAdapterAreALaunchFailureNamingLifebus() {
        let manifest = AppManifest(id: "a", executable: "/bin/sh", hooks: [.willTerminate: "true"])
        let error = #expect(throws: LaunchFailure.self) {
            try LaunchRequest(manifest: manifest, socketPath: "/s", logPath: "/l", hookAdapter: nil)
        }
        #expect(error?.path == "lifebus" && error?.code == ENOENT, "\(String(describing: error))")
    }

    @Test func theSchemaNamesEveryCallbackAHookMayAnswer() throws {
        let text = try #require(readText(repositoryRoot + "/Protocol/schemas/manifest.schema.json"))
        let names = try JSONParser.parse(text)["properties"]?["hooks"]?["propertyNames"]?["enum"]?.arrayValue
        #expect(names?.compactMap(\.stringValue) == LifecycleCallback.allCases.map(\.rawValue))
    }
}
