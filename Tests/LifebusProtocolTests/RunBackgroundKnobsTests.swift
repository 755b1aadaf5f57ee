import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// A run record names the background-execution and data-protection knobs the broker ran with under a profile with
/// data protection, and is what it was before under one without.
@Suite struct RunBackgroundKnobsTests {
    static func record(
        _ profile: Profile, queues: Bool = true, kinds: Set<BackgroundTaskKind> = [.processing], connects: Bool = false
    ) -> RunRecord {
        RunRecord(
            seq: 1, reason: .start, brokerVersion: "0", protocolVersion: 1, profile: profile, timeScale: 1, pid: 7,
            startedWallMs: 5, atMs: 0.5, wallMs: 5,
            background: RunBackgroundKnobs(
                profile: profile, queuesProtectedDataNotifications: queues, taskKindsAfterForceQuit: kinds,
                connectsSceneAtBackgroundLaunch: connects))
    }

    @Test(arguments: [Profile.ios3, .ios4, .ios7])
    func aProfileWithoutDataProtectionWritesNoKnobs(profile: Profile) {
        let record = Self.record(profile)
        #expect(record.background == nil)
        #expect(record.json.jsonText.hasSuffix(#""wallMs":5}"#))
    }

    @Test(arguments: [Profile.ios13, .ios15, .ios17, .ios26, .ios27])
    func aProfileWithDataProtectionWritesItsKnobsInKindOrderAndReadsThemBack(profile: Profile) throws {
        let record = Self.record(profile, queues: false, kinds: [.processing, .appRefresh], connects: true)
        let knobs = try #require(record.json["background"])
        #expect(knobs["queuesProtectedDataNotifications"] == false)
        #expect(knobs["connectsSceneAtBackgroundLaunch"] == true)
        #expect(knobs["taskKindsAfterForceQuit"] == ["appRefresh", "processing"])
        #expect(try RunRecord(json: try JSONParser.parse(record.json.jsonText)) == record)
        let none = Self.record(profile, kinds: [])
        #expect(none.json["background"]?["taskKindsAfterForceQuit"] == [])
        #expect(none.json["background"]?["connectsSceneAtBackgroundLaunch"] == false)
        #expect(try RunRecord(json: try JSONParser.parse(none.json.jsonText)) == none)
    }

    @Test(arguments: [
        "queuesProtectedDataNotifications", "taskKindsAfterForceQuit", "connectsSceneAtBackgroundLaunch",
    ])
    func aBackgroundWithoutOneOfItsMembersIsRefusedNamingIt(_ member: String) throws {
        var json = try #require(Self.record(.ios17).json.objectValue)
        var background: [String: JSONValue] = [
            "queuesProtectedDataNotifications": true, "taskKindsAfterForceQuit": [],
            "connectsSceneAtBackgroundLaunch": false,
        ]
        background[member] = nil
        let members = background.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        json.append("background", .object(JSONObject(members)))
        do {
            _ = try RunRecord(json: .object(json))
            Issue.record("a background without \(member) was read")
        } catch {
            #expect("\(error.message) \(error.data ?? .null)".contains(member))
        }
    }

    @Test func anUnknownTaskKindIsRefusedNamingTheMember() throws {
        var json = try #require(Self.record(.ios17).json.objectValue)
        json.append("background", [
            "queuesProtectedDataNotifications": true, "taskKindsAfterForceQuit": ["refresh"],
            "connectsSceneAtBackgroundLaunch": false,
        ])
        do {
            _ = try RunRecord(json: .object(json))
            Issue.record("an unknown kind was read")
        } catch {
            #expect("\(error.message) \(error.data ?? .null)".contains("taskKindsAfterForceQuit"))
        }
    }
}
