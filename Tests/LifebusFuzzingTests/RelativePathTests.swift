import LifebusFuzzing
import LifebusScenario
import Testing

/// A reproducer names its manifests relative to its own folder: the path from a folder to a file, up and down.
@Suite struct RelativePathTests {
    @Test(arguments: [
        ("/work/apps/a.json", "/work/apps", "a.json"),
        ("/work/apps/a.json", "/work", "apps/a.json"),
        ("/work/apps/a.json", "/work/runs/today", "../../apps/a.json"),
        ("/work/apps/a.json", "/", "work/apps/a.json"),
        ("/a.json", "/work/runs", "../../a.json"),
        ("/work/apps2/a.json", "/work/apps", "../apps2/a.json"),
    ])
    func aPathIsWrittenFromTheFolder(path: String, folder: String, relative: String) {
        #expect(RelativePath.of(path, from: folder) == relative)
    }

    @Test func aReproducersManifestsAreRelocatedAndItsIdsKept() {
        let scenario = Scenario(name: "fuzz-1", apps: [.manifest(path: "/w/apps/a.json"), .id("com.example.B"),
                                                       .manifest(path: "already/relative.json")], steps: [])
        #expect(Reproducer.relocated(scenario, to: "/w/runs").apps == [
            .manifest(path: "../apps/a.json"), .id("com.example.B"), .manifest(path: "already/relative.json"),
        ])
    }
}
