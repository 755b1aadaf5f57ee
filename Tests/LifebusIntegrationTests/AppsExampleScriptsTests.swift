import Glibc
import LifebusIO
import Testing

/// The shell scripts a user copies (`scripts/examples/*.sh`) keep working: each is copied to a fresh folder and
/// run there, with nothing but the built `lifebus` and `lifebusd` on `PATH`.
@Suite struct AppsExampleScriptsTests {
    static var scripts: [String] {
        fileNames(in: "\(TranscriptReplayTests.repositoryRoot)/scripts/examples", endingWith: ".sh")
    }

    @Test func thereAreExampleScripts() {
        #expect(Self.scripts.count >= 6)
    }

    @Test(arguments: scripts)
    func exampleScriptPassesItsChecksWhenCopiedAnywhere(name: String) throws {
        let run = try CopiedScript(name).run()
        #expect(run.status == 0, "\(name):\n\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(name):\n\(run.out)")
        #expect(!run.err.contains("Killed"), "no job-control noise: \(run.err)")
        #expect(run.leftOver.isEmpty, "processes left running: \(run.leftOver)")
    }

    /// The README's "test in five lines" runs as printed, passes, and leaves nothing running.
    @Test func theReadmesFiveLineTestRunsAsPrinted() throws {
        let readme = String(decoding: try readBytes("\(TranscriptReplayTests.repositoryRoot)/README.md"), as: UTF8.self)
        let section = try #require(readme.firstRange(of: "## A test in five lines of shell"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.firstRange(of: "```sh\n"))
        let close = try #require(rest[open.upperBound...].firstRange(of: "```"))
        let block = String(rest[open.upperBound..<close.lowerBound])
        #expect(block.split(separator: "\n").count == 5, "five lines: \(block)")
        let run = try CopiedScript(named: "readme-five-lines.sh", contents: block).run()
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("PASS expect com.example.MyApp"), "\(run.out)")
        #expect(run.leftOver.isEmpty, "processes left running: \(run.leftOver)")
    }

    /// The issue's "done means": the note-taking program whose save is slower than its budget is killed for real
    /// (program and hook), and the script that tests it fails.
    @Test func aSlowSaveIsKilledForRealAndTheNotesScriptFails() throws {
        let run = try CopiedScript("06-python-notes-app.sh").run(environment: ["NOTES_SAVE_SECONDS": "5"])
        #expect(run.status == 1, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("watchdog"), "\(run.out)")
        #expect(run.out.contains("FAIL expect com.example.Notes"), "\(run.out)")
        #expect(!run.out.contains("all checks passed"))
        #expect(run.leftOver.isEmpty, "processes left running: \(run.leftOver)")
    }
}

/// One example script copied into a folder of its own (also its working directory and `TMPDIR`), run with `PATH`
/// holding the built binaries first. Owns the folder; removes it when done.
struct CopiedScript {
    let folder: String
    let path: String

    /// A copy of `scripts/examples/NAME`.
    init(_ name: String) throws {
        let source = "\(TranscriptReplayTests.repositoryRoot)/scripts/examples/\(name)"
        try self.init(named: name, contents: String(decoding: try readBytes(source), as: UTF8.self))
    }

    /// A script with these contents.
    init(named name: String, contents: String) throws {
        var template = Array("/tmp/lifebus-copied-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FixtureError("mkdtemp failed") }
        folder = String(cString: made)
        path = "\(folder)/\(name)"
        guard let file = fopen(path, "w") else { throw FixtureError("cannot write \(path)") }
        fputs(contents, file)
        fclose(file)
    }

    /// Runs the script to its end (killing it after `timeout`); `leftOver` lists processes still working in the folder.
    func run(environment: [String: String] = [:], timeout: Duration = .seconds(60)) throws
        -> (status: Int32, out: String, err: String, leftOver: [String])
    {
        var variables = environment
        variables["PATH"] = "\(ChildProcess.productsFolder):\(ProcessEnvironment.current["PATH"] ?? "/usr/bin:/bin")"
        variables["TMPDIR"] = folder
        // Started from inside the folder, so every process it starts works there until it changes directory.
        let script = try ChildProcess("/bin/sh", ["-c", "cd \"$0\" && exec bash \"$1\"", folder, path],
                                      environment: variables)
        let out = script.stdout.readAll(timeout: timeout)
        let err = script.stderr.readAll(timeout: .seconds(5))
        if script.isAlive { script.signal(SIGKILL) }  // it overran: fail rather than hang the suite
        let status = script.wait()
        let leftOver = processes(workingUnder: folder)
        FolderEntries.removeTree(folder)
        return (status, out, err, leftOver)
    }
}

/// The pids of live processes whose working directory is inside `folder` (read from `/proc/PID/cwd`).
func processes(workingUnder folder: String) -> [String] {
    var found: [String] = []
    for name in FolderEntries.names(in: "/proc") ?? [] {
        guard Int32(name) != nil else { continue }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let length = readlink("/proc/\(name)/cwd", &buffer, buffer.count - 1)
        guard length > 0 else { continue }
        let cwd = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if cwd.hasPrefix(folder + "/") { found.append("\(name) in \(cwd)") }
    }
    return found
}

