import ArgumentParser
import Glibc
import LifebusIO

extension LifebusCommand {
    /// `lifebus run FILE…`: carried out by `lifebus-run`, found beside this executable or on `PATH`, which this
    /// process becomes (`execv`): scenario files need Yams and so Foundation, whose thousands of conformance records
    /// would slow every one-shot `lifebus` command's start-up if linked here.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run scenario files (YAML or JSON) under one or every profile; report, optionally as JUnit XML.",
            usage: """
                lifebus run FILE... [--profile P[,P...]|all] [--diff] [--junit FILE] [--json] [--report FILE]
                                    [--socket PATH] [--shard K/N [--timings REPORT]] [BROKER-OPTIONS]
                lifebus run --random SEED|--seeds A..B [--steps N] --app MANIFEST... [--profile P] [--fact FACT]...
                                    [-o FILE] [--report FILE] [BROKER-OPTIONS]
                BROKER-OPTIONS (the private brokers'; not with --socket): [--scene-order-seed N]
                                    [--protected-data-notifications queued|missed] [--tasks-after-force-quit KINDS|none]
                                    [--background-launch-scene none|connects]
                """,
            discussion: """
                Each scenario runs under each selected profile it lists (--profile: one, several in the order \
                given, or all; default all), each time on a private lifebusd with the manual clock on a temporary \
                socket, its apps with a fresh empty state folder (LIFEBUS_STATE_DIR), stopped afterwards; with \
                --socket, on that broker (reset before each scenario) under its \
                profile. The format: Protocol/scenarios.md. --diff reports what stopped happening from each \
                profile to the next (the migration diff). --shard K/N runs this runner's part of the scenario × \
                profile runs (lifebus merge joins the parts' --report files). Exit status: 0 every run passed, 1 a \
                run failed (or --diff found a loss), 2 usage, 3 the broker at --socket is unreachable, 4 a \
                scenario file is bad (FILE:LINE:COLUMN: why; nothing runs). With --random, the interruption \
                fuzzer: random legal steps from SEED (or each seed of A..B) under --profile P (all: every profile, \
                the same seed each), invariants checked at every step, a failure shrunk and written as a \
                reproducer scenario (lifebus-run --help for its options). Carried out by lifebus-run.
                """
        )

        @Argument(parsing: .allUnrecognized, help: "Scenario files and options (see the usage).")
        var arguments: [String] = []

        func run() throws {
            try Self.exec(arguments)
        }

        /// Becomes `lifebus-run` with `arguments` (returns only by throwing when it cannot).
        static func exec(_ arguments: [String]) throws {
            guard let program = Self.findRunner() else {
                StandardError.writeLine("lifebus: cannot find lifebus-run beside this executable or on PATH")
                throw CLIExitStatus.usage
            }
            let argv = ([program] + arguments).map { strdup($0) } + [nil]
            // A signal mask survives `execv`: this may run on a thread of the concurrency pool, which blocks every
            // asynchronous signal, and lifebus-run would then never see Ctrl-C (SIGINT) or SIGTERM.
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            execv(program, argv)
            StandardError.writeLine("lifebus: cannot run \(program): \(String(cString: strerror(errno)))")
            throw CLIExitStatus.usage
        }

        /// `lifebus-run` beside the running executable, else on `PATH`.
        static func findRunner() -> String? {
            SiblingExecutable.find("lifebus-run", path: ProcessEnvironment.current["PATH"])
        }
    }

    /// `lifebus merge REPORT…`: carried out by `lifebus-run merge` (it loads the scenario files again, with Yams).
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Join the reports of sharded runs (lifebus run --shard K/N --report FILE) into one verdict.",
            usage: "lifebus merge REPORT... [--junit FILE] [--json] [--report FILE] [--diff] [--coverage]",
            discussion: """
                One report, one JUnit file, one coverage table and one exit status from the shards' JSON reports, \
                as one unsharded run gives them; fuzz campaigns' reports (--seeds A..B --report FILE) are joined \
                too. Exit status: 0 all passed, 1 one failed (or broke, or --diff found a loss), 2 usage, 4 a bad \
                report or scenario file. Carried out by lifebus-run.
                """
        )

        @Argument(parsing: .allUnrecognized, help: "Reports and options (see the usage).")
        var arguments: [String] = []

        func run() throws {
            try Run.exec(["merge"] + arguments)
        }
    }
}
