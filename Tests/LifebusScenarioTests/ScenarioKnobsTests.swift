import LifebusLifecycle
import LifebusScenario
import Testing

/// A scenario file's `knobs`: each member a `lifebusd` knob flag with one of its words (`DeviceKnobs`), read into
/// the scenario, written back by the reproducer's writer, and refused at `FILE:LINE:COLUMN` when unknown or wrong.
@Suite struct ScenarioKnobsTests {
    static let steps = "steps:\n  - fire: home\n"

    @Test func theKnobsReadAsTheFlagsWouldSetThem() throws {
        let scenario = try ScenarioParserTests.parse("""
            knobs:
              protected-data-notifications: missed
              tasks-after-force-quit: processing,appRefresh
              background-launch-scene: connects

            """ + Self.steps)
        #expect(scenario.knobs == DeviceKnobs(
            queuesProtectedDataNotifications: false, taskKindsAfterForceQuit: [.appRefresh, .processing],
            connectsSceneAtBackgroundLaunch: true))
        let back = try ScenarioParserTests.parse(scenario.json.jsonText)
        #expect(back == scenario, "the JSON the reproducer writer lays out reads back equal")
        #expect(try ScenarioParserTests.parse(Self.steps).knobs == DeviceKnobs(), "none: the command line's")
    }

    @Test(arguments: [
        ("knobs: {protected-data: missed}\n", "s.yaml:1:9: unknown member 'protected-data' in knobs"),
        ("knobs: {protected-data-notifications: sometimes}\n",
         "s.yaml:1:39: protected-data-notifications: 'sometimes' is not one of queued or missed"),
        ("knobs: {tasks-after-force-quit: refresh}\n", "s.yaml:1:33: tasks-after-force-quit: 'refresh' is not one of"),
        ("knobs: [missed]\n", "s.yaml:1:8: knobs must be a mapping"),
    ])
    func aWrongKnobIsPlacedAndNamed(text: String, message: String) {
        let error = ScenarioParserTests.error(text + Self.steps)
        #expect(error.hasPrefix(message), "\(error)")
    }
}
