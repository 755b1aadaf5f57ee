import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// A run record names the profile's scene knobs and the scene-order seed under a profile with scenes, and is what it
/// was before scenes under one without.
@Suite struct RunSceneKnobsTests {
    static func record(_ profile: Profile, seed: UInt64 = 0) -> RunRecord {
        RunRecord(
            seq: 1, reason: .start, brokerVersion: "0", protocolVersion: 1, profile: profile, timeScale: 1, pid: 7,
            startedWallMs: 5, atMs: 0.5, wallMs: 5, scenes: RunSceneKnobs(profile: profile, sceneOrderSeed: seed))
    }

    @Test(arguments: [Profile.ios3, .ios4, .ios7])
    func aProfileWithoutScenesWritesNoKnobs(profile: Profile) throws {
        let record = Self.record(profile)
        #expect(record.scenes == nil)
        #expect(record.json["scenes"] == nil)
        #expect(record.json.jsonText.hasSuffix(#""wallMs":5}"#))
    }

    @Test(arguments: [Profile.ios13, .ios15, .ios17, .ios26, .ios27])
    func aProfileWithScenesWritesItsKnobsAndSeedAndReadsThemBack(profile: Profile) throws {
        let record = Self.record(profile, seed: 42)
        let knobs = try #require(record.json["scenes"])
        #expect(knobs["sceneSupport"]?.stringValue == profile.sceneSupport.rawValue)
        #expect(knobs["switcherClose"]?.stringValue == profile.switcherClose.rawValue)
        #expect(knobs["restoresInteractionState"]?.boolValue == profile.restoresInteractionState)
        #expect(knobs["destructionConditions"]?.boolValue == profile.hasDestructionConditions)
        #expect(knobs["sceneOrderSeed"] == 42)
        #expect(try RunRecord(json: try JSONParser.parse(record.json.jsonText)) == record)
    }

    @Test("callPresentation: written from ios15 (the compact banner), read back; ios13 has none")
    func theCallPresentationIsRecordedWhereTheBannerExists() throws {
        for profile in [Profile.ios13, .ios15, .ios27] {
            var record = Self.record(profile)
            record.scenes = RunSceneKnobs(profile: profile, sceneOrderSeed: 3, callPresentation: .seeded)
            let written = record.json["scenes"]?["callPresentation"]?.stringValue
            #expect(written == (profile.hasCompactCallBanner ? "seeded" : nil), "\(profile)")
            #expect(try RunRecord(json: try JSONParser.parse(record.json.jsonText)) == record)
        }
        var json = try #require(Self.record(.ios17).json.objectValue)
        json.append("scenes", ["sceneSupport": "optional", "switcherClose": "terminates", "sceneOrderSeed": 0,
                               "callPresentation": "popup"])
        #expect(throws: RPCError.self) { try RunRecord(json: .object(json)) }
    }

    @Test func aBadKnobIsRefusedNamingIt() throws {
        var json = try #require(Self.record(.ios17).json.objectValue)
        json.append("scenes", ["sceneSupport": "sometimes", "switcherClose": "terminates",
                               "restoresInteractionState": true, "destructionConditions": false,
                               "sceneOrderSeed": 0])
        #expect(throws: RPCError.self) { try RunRecord(json: .object(json)) }
        do {
            _ = try RunRecord(json: .object(json))
        } catch {
            #expect(error.message.contains("sceneSupport") || "\(error.data ?? .null)".contains("sceneSupport"))
        }
    }
}
