import Glibc
import LifebusIO
import Testing

/// A fuzz reproducer names its manifests relative to itself, so `lifebus run fuzz.yaml` fails the same way from
/// whatever folder it is run, and from a copy of the tree it was written in.
@Suite struct ReproducerFromAnyFolderTests {
    @Test func aReproducerRunsTheSameFromAnotherWorkingDirectory() throws {
        let folder = makeTemporaryFolder("lifebus-reproducer")
        defer { FolderEntries.removeTree(folder) }
        // The tree the reproducer is written in: its manifest two folders up from it.
        for name in ["manifests", "runs", "runs/today"] { mkdir(folder + "/" + name, 0o755) }
        let manifest = #"{"id": "com.example.Forgetful", "executable": "PROGRAM"}"#
            .replacing("PROGRAM", with: "\(ChildProcess.productsFolder)/Forgetful")
        let file = try #require(fopen(folder + "/manifests/forgetful.json", "w"))
        fputs(manifest, file)
        fclose(file)
        let found = try runCLI(
            ["run", "--random", "34", "--steps", "15", "--app", folder + "/manifests/forgetful.json",
             "--profile", "ios7", "-o", folder + "/runs/today/fuzz-34.yaml", "--fact", "saves=state-saved"],
            timeout: .seconds(120))
        #expect(found.status == 1, "\(found.out)\(found.err)")
        let scenario = try #require(readFile(folder + "/runs/today/fuzz-34.yaml"))
        #expect(scenario.contains("\"../../manifests/forgetful.json\""), "\(scenario)")
        #expect(!scenario.contains("apps:\n  - \"/"), "no absolute manifest path: \(scenario)")

        for (directory, file) in [("/", folder + "/runs/today/fuzz-34.yaml"), (folder + "/runs", "today/fuzz-34.yaml"),
                                  (folder + "/runs/today", "fuzz-34.yaml")] {
            let replay = try ChildProcess(
                "/bin/sh", ["-c", "cd \"$0\" && exec \"$1\" run \"$2\"", directory,
                            "\(ChildProcess.productsFolder)/lifebus", file])
            let out = replay.stdout.readAll(timeout: .seconds(60))
            let status = replay.wait()
            #expect(status == 1, "from \(directory): \(out)")
            #expect(out.contains("FAIL mark state-saved  expected: present"), "from \(directory): \(out)")
        }
    }
}
