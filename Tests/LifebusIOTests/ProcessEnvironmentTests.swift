import LifebusIO
import Testing

/// `ProcessEnvironment.values(of:)` reads the named variables as the full snapshot has them. (No test sets a
/// variable: `setenv` races with every other test reading the environment.)
@Suite struct ProcessEnvironmentTests {
    @Test func namedValuesMatchTheSnapshot() throws {
        let snapshot = ProcessEnvironment.current
        let set = try #require(snapshot.keys.sorted().first, "the test process has an environment")
        let names = [set, "PATH", "LIFEBUS_SURELY_UNSET_VARIABLE_0D5E"]
        let values = ProcessEnvironment.values(of: names)
        #expect(values[set] == snapshot[set])
        #expect(values["LIFEBUS_SURELY_UNSET_VARIABLE_0D5E"] == nil)
        #expect(values == snapshot.filter { names.contains($0.key) })
    }
}
