import Glibc
import LifebusIO
import Testing

/// A program that does not speak the protocol, installed as it is: the README's recipe keeps a key of Debian's
/// `redis-server` across home → jetsam → relaunch, run as written (and fails once its save hook is taken out); a
/// manifest's `${VAR}`s and bare executable take the installing client's environment, not the broker's — whether the
/// client is `lifebus install`, `lifebus run`'s scenario runner or the MCP `install` tool; a broker with no `lifebus`
/// beside it refuses hooks.
@Suite struct ExistingProgramRecipeTests {
    /// Whether the recipe runs: `redis-server` is there, or `scripts/test` (which installs it) asks for it.
    static let redisRuns = access("/usr/bin/redis-server", X_OK) == 0
        || ProcessEnvironment.current["LIFEBUS_REQUIRE_REDIS"] != nil

    /// The README's block, the manifest it installs, and what running it gave.
    private func runRecipe(manifest: (String) -> String = { $0 }) throws
        -> (block: String, status: Int32, out: String, err: String)
    {
        let root = TranscriptReplayTests.repositoryRoot
        let readme = String(decoding: try readBytes("\(root)/README.md"), as: UTF8.self)
        let section = try #require(readme.firstRange(of: "## An existing program, installed as it is"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.firstRange(of: "```sh\n"))
        let close = try #require(rest[open.upperBound...].firstRange(of: "```"))
        let block = String(rest[open.upperBound..<close.lowerBound])

        let script = try CopiedScript(named: "readme-redis.sh", contents: block)
        defer { FolderEntries.removeTree(script.folder) }
        mkdir(script.folder + "/Examples", 0o755)
        mkdir(script.folder + "/Examples/manifests", 0o755)
        let text = String(decoding: try readBytes("\(root)/Examples/manifests/redis.json"), as: UTF8.self)
        let file = try #require(fopen(script.folder + "/Examples/manifests/redis.json", "w"))
        fputs(manifest(text), file)
        fclose(file)

        let marker = "redis-recipe-\(getpid())-\(script.folder.split(separator: "/").last ?? "")"
        let run = try ChildProcess(
            "/bin/sh", ["-c", "cd \"$0\" && exec bash -euo pipefail \"$1\"", script.folder, script.path],
            environment: [
                "PATH": "\(ChildProcess.productsFolder):\(ProcessEnvironment.current["PATH"] ?? "/usr/bin:/bin")",
                "TMPDIR": script.folder, "REDIS_PORT": "\(try Self.freePort())", SupervisionCheck.brokerMarker: marker,
            ])
        let out = run.stdout.readAll(timeout: .seconds(60))
        let err = run.stderr.readAll(timeout: .seconds(5))
        if run.isAlive { run.signal(SIGKILL) }
        let status = run.wait()
        SupervisionCheck.expectNoSurvivor(ofBrokerOn: marker)  // no redis-server, subscribe or hook left behind
        return (block, status, out, err)
    }

    @Test(.enabled(if: redisRuns)) func theReadmesRedisRecipeKeepsItsKeyAcrossJetsam() throws {
        let run = try runRecipe()
        #expect(run.block.split(separator: "\n").count <= 15, "at most 15 lines: \(run.block)")
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("installed io.redis.Server (/usr/bin/redis-server)"), "\(run.out)")
        #expect(run.out.contains("the key survived home, jetsam and relaunch"), "\(run.out)\n\(run.err)")
    }

    @Test(.enabled(if: redisRuns)) func withoutItsSaveHookTheKeyIsLostAndTheRecipeFails() throws {
        let run = try runRecipe { text in
            text.replacing(#""didEnterBackground": "redis-cli -p ${REDIS_PORT:-6390} save","#, with: "")
        }
        #expect(run.status != 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("PASS expect io.redis.Server"), "it got as far as the jetsam: \(run.out)\(run.err)")
        #expect(!run.out.contains("the key survived"), "\(run.out)")
    }

    @Test func aManifestTakesTheInstallingClientsVariablesAndPath() throws {
        let broker = try BrokerFixture()
        let folder = makeTemporaryFolder("lifebus-variables")
        defer { FolderEntries.removeTree(folder) }
        let manifest = folder + "/tool.json"
        let file = try #require(fopen(manifest, "w"))
        fputs(#"{"id": "com.test.Tool", "executable": "${HOOKS_TEST_TOOL:-true}", "arguments": ["${HOOKS_TEST_ARG}"]}"#,
              file)
        fclose(file)
        let socket = ["--socket", broker.socketPath]

        let unset = try runCLI(["install", manifest] + socket)
        #expect(unset.status == 4, "\(unset.out)\(unset.err)")
        #expect(unset.err.contains("\(manifest): member \"arguments\": variable \"HOOKS_TEST_ARG\" is not set"),
                "\(unset.err)")

        let bare = try runCLI(["install", manifest] + socket, environment: ["HOOKS_TEST_ARG": "x", "PATH": "/bin"])
        #expect(bare.status == 0 && bare.out.contains("installed com.test.Tool (/bin/true)"), "\(bare.out)\(bare.err)")
        _ = try runCLI(["uninstall", "com.test.Tool"] + socket)

        let named = try runCLI(["install", manifest] + socket,
                               environment: ["HOOKS_TEST_ARG": "x", "HOOKS_TEST_TOOL": "/bin/sh"])
        #expect(named.out.contains("installed com.test.Tool (/bin/sh)"), "\(named.out)\(named.err)")
        #expect(broker.stop() == 0)
    }

    @Test func aScenarioInstallsAProgramUnderHooksWithTheRunnersVariables() throws {
        let folder = makeTemporaryFolder("lifebus-hooked-scenario")
        defer { FolderEntries.removeTree(folder) }
        let files = [
            "sleeper.json": """
                {"id": "com.test.Sleeper", "executable": "sleep", "arguments": ["${SLEEPER_SECONDS:-600}"],
                 "hooks": {"didEnterBackground": "lifebus mark saved-${SLEEPER_MARK}"}}
                """,
            "hooked.yaml": """
                name: A program under hooks
                profiles: [ios7]
                apps:
                  - manifest: sleeper.json
                steps:
                  - launch: com.test.Sleeper
                  - fire: home
                  - expect:
                      callbacks: [didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground]
                      mark: saved-from-the-runner
                """,
        ]
        for (name, text) in files {
            let file = try #require(fopen(folder + "/" + name, "w"))
            fputs(text, file)
            fclose(file)
        }
        let marker = "hooked-scenario-\(getpid())"
        let run = try runCLI(["run", folder + "/hooked.yaml"], environment: [
            "SLEEPER_MARK": "from-the-runner", SupervisionCheck.brokerMarker: marker,
            "PATH": "\(ChildProcess.productsFolder):/usr/bin:/bin",
        ], timeout: .seconds(60))
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(run.out.contains("PASS"), "\(run.out)")
        SupervisionCheck.expectNoSurvivor(ofBrokerOn: marker)
    }

    @Test func theMCPInstallToolSendsTheServersVariables() throws {
        let broker = try BrokerFixture()
        let folder = makeTemporaryFolder("lifebus-mcp-variables")
        defer { FolderEntries.removeTree(folder) }
        let run = try HelperScripts.python(
            "mcp_install_variables.py", ["\(ChildProcess.productsFolder)/lifebus", broker.socketPath, folder])
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }

    @Test func aBrokerWithoutLifebusBesideItRefusesHooksNamingTheMember() throws {
        let folder = makeTemporaryFolder("lifebus-lonely")
        defer { FolderEntries.removeTree(folder) }
        #expect(try ChildProcess("/bin/cp", ["\(ChildProcess.productsFolder)/lifebusd", folder]).wait() == 0)
        let manifest = folder + "/hooked.json"
        let file = try #require(fopen(manifest, "w"))
        fputs(#"{"id": "com.test.Hooked", "executable": "/bin/sh", "hooks": {"willTerminate": "true"}}"#, file)
        fclose(file)
        let socket = BrokerFixture.uniqueSocketPath("lonely")
        let broker = try ChildProcess(folder + "/lifebusd", ["--socket", socket, "--journal", folder + "/j.jsonl"],
                                      environment: ["PATH": "/usr/bin:/bin", SupervisionCheck.brokerMarker: socket])
        defer {
            broker.signal(SIGTERM)
            _ = broker.wait()
            unlink(socket)
            unlink(socket + ".lock")
        }
        #expect(broker.stdout.readLine() == "listening on \(socket)")
        let refused = try runCLI(["install", manifest, "--socket", socket])
        #expect(refused.status == 4, "\(refused.out)\(refused.err)")
        #expect(refused.err.contains("\(manifest): member \"hooks\": hooks run under `lifebus subscribe`"),
                "\(refused.err)")
    }

    /// A loopback TCP port nothing listens on now.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FixtureError("socket failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw FixtureError("bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
