import Glibc
import Testing

/// A 569-byte "billion laughs" (nine levels of aliases of aliases, 9⁹ strings once expanded) is refused at its first
/// anchor, with its place, before any tree is built: quickly and in bounded memory (it used to take gigabytes and
/// abort).
@Suite struct ScenarioAliasBombTests {
    /// Runs its arguments as a command and prints its exit status, the largest resident size (KiB) of its children
    /// and the seconds it took, then the command's stderr. The measure is taken by a small process of its own: a
    /// child spawned by the test process itself would count the test process's memory, shared until its `exec`.
    static let measure = """
        import resource, subprocess, sys, time
        start = time.monotonic()
        run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        took = time.monotonic() - start
        print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, took)
        sys.stderr.write(run.stderr.decode())
        """

    @Test func anAliasBombIsRefusedAtItsFirstAnchorQuicklyInBoundedMemory() throws {
        let file = "\(ScenarioRunTests.root)/Tests/Fixtures/scenarios/alias-bomb.yaml"
        let lifebus = "\(ChildProcess.productsFolder)/lifebus"
        let child = try ChildProcess(HelperScripts.executable("python3"), ["-c", Self.measure, lifebus, "run", file])
        let figures = child.stdout.readAll(timeout: .seconds(30)).split(separator: " ").map(String.init)
        let err = child.stderr.readAll(timeout: .seconds(5))
        #expect(child.wait() == 0)
        #expect(err.contains("\(file):9:14: anchors (&NAME) are not supported in scenario files"), "\(err)")
        #expect(figures.first == "4", "exit status 4: \(figures)")
        let kilobytes = figures.count == 3 ? Int(figures[1]) ?? .max : .max
        #expect(kilobytes < 50 * 1024, "max RSS of lifebus run (lifebus-run): \(kilobytes) KiB")
        let seconds = figures.count == 3 ? Double(figures[2].filter { !$0.isNewline }) ?? .infinity : .infinity
        #expect(seconds < 1, "refused in \(seconds) s")
    }
}
