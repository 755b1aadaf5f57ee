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
                lifebus run FILE... [--profile ios3|ios4|ios7|all] [--junit FILE] [--json] [--socket PATH]
                lifebus run --random SEED [--steps N] --app MANIFEST... [--profile P] [--fact FACT]... [-o FILE]
                """,
            discussion: """
                Each scenario runs under each selected profile it lists (--profile, default all), each time on a \
                private lifebusd with the manual clock on a temporary socket, stopped afterwards; with --socket, on \
                that broker (reset before each scenario) under its profile. The format: Protocol/scenarios.md. \
                Exit status: 0 every run passed, 1 a run failed, 2 usage, 3 the broker at --socket is unreachable, \
                4 a scenario file is bad (FILE:LINE:COLUMN: why; nothing runs). With --random, the interruption \
                fuzzer: random legal steps from SEED under --profile P (all: ios3, ios4 and ios7, the same seed \
                each), invariants checked at every step, a failure shrunk and written as a reproducer scenario \
                (lifebus-run --help for its options). Carried out by lifebus-run.
                """
        )

        @Argument(parsing: .allUnrecognized, help: "Scenario files and options (see the usage).")
        var arguments: [String] = []

        func run() throws {
            guard let program = Self.findRunner() else {
                StandardError.writeLine("lifebus: cannot find lifebus-run beside this executable or on PATH")
                throw CLIExitStatus.usage
            }
            let argv = ([program] + arguments).map { strdup($0) } + [nil]
            execv(program, argv)
            StandardError.writeLine("lifebus: cannot run \(program): \(String(cString: strerror(errno)))")
            throw CLIExitStatus.usage
        }

        /// `lifebus-run` beside the running executable, else on `PATH`.
        static func findRunner() -> String? {
            var candidates: [String] = []
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 {
                let own = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if let slash = own.lastIndex(of: "/") { candidates.append(own[..<slash] + "/lifebus-run") }
            }
            for folder in (ProcessEnvironment.current["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
                candidates.append("\(folder)/lifebus-run")
            }
            return candidates.first { access($0, X_OK) == 0 }
        }
    }
}
