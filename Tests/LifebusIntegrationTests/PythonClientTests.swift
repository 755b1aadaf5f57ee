import Glibc
import LifebusIO
import Testing

/// The Python client, `clients/python`, checked from `swift test` as CI runs it: installed offline with the standard
/// backend into a temporary folder, then its pytest suite (the plugin's own `pytester` tests, the client against
/// this build's broker and real app processes, a test over every profile, the README's "A test in Python" as
/// written) with this build's binaries (`LIFEBUS_BIN_DIR`); and `mypy --strict`, `ruff check` and `ruff format --check`
/// clean. pytest, mypy and ruff come from `scripts/test` (`lifebus_ensure_python_client_tools`).
@Suite struct PythonClientTests {
    static let client = "\(TranscriptReplayTests.repositoryRoot)/clients/python"
    static let python = HelperScripts.executable("python3")
    /// No `__pycache__` or tool caches written into the tree.
    static let quiet = ["PYTHONDONTWRITEBYTECODE": "1", "PIP_ROOT_USER_ACTION": "ignore"]

    @Test func theClientInstallsOfflineAndItsPytestSuitePasses() throws {
        let folder = makeTemporaryFolder("lifebus-python")
        defer { FolderEntries.removeTree(folder) }
        // From a copy: building writes build/ and *.egg-info beside the sources.
        let copy = try Self.run("/bin/cp", ["-R", Self.client, "\(folder)/client"])
        try #require(copy.status == 0, "\(copy.err)")
        let install = try Self.run(Self.python, [
            "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-build-isolation", "--no-index",
            "--target", "\(folder)/site", "\(folder)/client",
        ])
        try #require(
            install.status == 0, "pip install --no-build-isolation --no-index:\n\(install.out)\n\(install.err)")
        let suite = try Self.run(
            Self.python, ["-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfE", "\(Self.client)/tests"],
            environment: ["PYTHONPATH": "\(folder)/site", "LIFEBUS_BIN_DIR": ChildProcess.productsFolder],
            timeout: .seconds(900)  // about 30 s alone; five minutes beside the whole suite on two cores
        )
        #expect(suite.status == 0, "pytest:\n\(suite.out)\n\(suite.err)")
        #expect(suite.out.contains(" passed"), "\(suite.out)")
        #expect(!suite.out.contains("skipped"), "no test may be skipped: \(suite.out)")
    }

    @Test func theClientIsTypeCheckedStrictly() throws {
        let check = try Self.run(Self.python, [
            "-m", "mypy", "--strict", "--cache-dir=/dev/null", "--config-file", "\(Self.client)/pyproject.toml",
            "\(Self.client)/src", "\(Self.client)/tests",
        ])
        #expect(check.status == 0, "mypy --strict:\n\(check.out)\n\(check.err)")
    }

    @Test func theClientIsLintClean() throws {
        let check = try Self.run(Self.python, ["-m", "ruff", "check", "--no-cache", Self.client])
        #expect(check.status == 0, "ruff check:\n\(check.out)\n\(check.err)")
    }

    @Test func theClientIsFormatted() throws {
        let check = try Self.run(Self.python, ["-m", "ruff", "format", "--check", "--no-cache", Self.client])
        #expect(check.status == 0, "ruff format --check:\n\(check.out)\n\(check.err)")
    }

    /// Runs a program to its end (killed only once `timeout` has passed): status, stdout, stderr.
    static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:],
        timeout: Duration = .seconds(180)
    ) throws -> (status: Int32, out: String, err: String) {
        let deadline = Deadline(after: timeout)
        let child = try ChildProcess(program, arguments, environment: quiet.merging(environment) { $1 })
        // It closes its output when it ends: read to the end, then reap.
        let out = child.stdout.readAll(timeout: timeout)
        let err = child.stderr.readAll(timeout: .seconds(5))
        if deadline.hasPassed && child.isAlive { child.signal(SIGKILL) }  // it overran: fail rather than hang
        return (child.wait(), out, err)
    }
}
