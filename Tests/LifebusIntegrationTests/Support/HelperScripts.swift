import Glibc
import LifebusIO

/// The helper scripts in `Tests/LifebusIntegrationTests/Fixtures` (a Python MCP client, a PNG reader) and the
/// outside programs the timeline tests drive (python3, headless Chromium), run as real processes.
enum HelperScripts {
    static let folder = "\(TranscriptReplayTests.repositoryRoot)/Tests/LifebusIntegrationTests/Fixtures"

    /// Runs `python3 Fixtures/SCRIPT ARGUMENTS…` to completion (killed past `timeout`): status, stdout, stderr.
    static func python(_ script: String, _ arguments: [String], timeout: Duration = .seconds(90)) throws
        -> (status: Int32, out: String, err: String)
    {
        let child = try ChildProcess(executable("python3"), ["\(folder)/\(script)"] + arguments)
        let out = child.stdout.readAll(timeout: timeout)
        let err = child.stderr.readAll(timeout: .seconds(5))
        if child.isAlive { child.signal(SIGKILL) }  // it overran: fail rather than hang the suite
        return (child.wait(), out, err)
    }

    /// Renders `svg` to `png` with headless Chromium at `width`×`height` CSS pixels, one device pixel each.
    static func screenshot(svg: String, png: String, width: Int, height: Int) throws -> (status: Int32, err: String) {
        var arguments = [
            "--headless", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--screenshot=\(png)", "--window-size=\(width),\(height)", svg,
        ]
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 0) }  // Chromium refuses to sandbox as root
        let child = try ChildProcess(executable("chromium"), arguments)
        _ = child.stdout.readAll(timeout: .seconds(60))
        let err = child.stderr.readAll(timeout: .seconds(5))
        if child.isAlive { child.signal(SIGKILL) }
        return (child.wait(), err)
    }

    /// The absolute path of `name` on `PATH` (`/usr/bin/NAME` when not found, so the failure names it).
    static func executable(_ name: String) -> String {
        let path = ProcessEnvironment.current["PATH"] ?? "/usr/bin"
        for folder in path.split(separator: ":") where access("\(folder)/\(name)", X_OK) == 0 {
            return "\(folder)/\(name)"
        }
        return "/usr/bin/\(name)"
    }
}
