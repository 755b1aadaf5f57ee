import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// `DeviceConfiguration.callPresentation` (`Protocol/lifecycle.md`, "Calls as a banner", C01–C04): from `ios15` on an
/// unlocked device, a banner leaves the front app (or its scene) active until the call is answered; answering opens
/// the full-screen call UI, which resigns it until the call ends; `seeded` replays its draws.
@Suite("call presentation")
struct CallPresentationTests {
    static let scene = AppFlags(adoptsScenes: true)

    /// The journal and the situation after `steps`, one per step (its lines, then the situation).
    static func play(
        _ profile: Profile, _ presentation: CallPresentation, seed: UInt64 = 0, flags: AppFlags = AppFlags(),
        setup: [Step] = [], _ steps: [Step]
    ) -> [[String]] {
        var harness = Harness(DeviceConfiguration(
            profile: profile, sceneOrderSeed: seed, callPresentation: presentation))
        harness.run(.connect("A", flags))
        for step in setup { harness.run(step) }
        return steps.map { step in
            let start = harness.journal.count
            harness.run(step)
            #expect(harness.violations.isEmpty)
            return harness.describe(from: start) + [harness.situation]
        }
    }

    @Test("C01–C03: a banner rings without a callback; declined, nothing happened",
          arguments: [Profile.ios15, .ios26])
    func bannerRingsSilently(_ profile: Profile) {
        let played = Self.play(profile, .banner, [.fire(.call(.ring)), .fire(.call(.decline))])
        #expect(played == [["A=active front=A call=ringing"], ["A=active front=A"]])
    }

    @Test("C02, C04: answered from the banner, the call UI resigns the app until the call ends; no background")
    func answeredFromTheBannerResigns() {
        let played = Self.play(.ios17, .banner, [.fire(.call(.ring)), .fire(.call(.answer)), .fire(.call(.end))])
        #expect(played == [
            ["A=active front=A call=ringing"],
            ["A willResignActive active→inactive ok", "A=inactive front=A call=inProgress"],
            ["A didBecomeActive inactive→active ok", "A=active front=A"],
        ])
    }

    @Test("C01, C02: a scene app's scene stays active under the banner and resigns once the call is answered")
    func sceneUnderTheBanner() {
        let played = Self.play(.ios26, .banner, flags: Self.scene,
                               [.fire(.call(.ring)), .fire(.call(.answer)), .fire(.call(.end))])
        #expect(played[0] == ["A=active A.s1=1:foregroundActive front=A call=ringing"])
        #expect(played[1].first == "A/1 sceneWillResignActive foregroundActive→foregroundInactive ok")
        #expect(played[2].first == "A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok")
    }

    @Test("before ios15, behind the lock, or fullScreen: the call takes the screen as R01–R03 say",
          arguments: [(Profile.ios13, CallPresentation.banner, false), (.ios15, .banner, true),
                      (.ios17, .fullScreen, false)])
    func fullScreenWhereNoBannerShows(_ profile: Profile, _ presentation: CallPresentation, _ locked: Bool) {
        let steps: [Step] = [.fire(.call(.ring)), .fire(.call(.answer)), .fire(.call(.end))]
        let setup: [Step] = locked ? [.fire(.sleep)] : []
        #expect(Self.play(profile, presentation, setup: setup, steps)
            == Self.play(.ios7, .fullScreen, setup: setup, steps))
    }

    @Test("seeded: each call draws a presentation from the seed and the event, the same on a replay")
    func seededReplays() {
        let steps: [Step] = [.fire(.call(.ring)), .fire(.call(.decline))]
        var banners = 0
        for seed in UInt64(0)..<32 {
            let played = Self.play(.ios17, .seeded, seed: seed, steps)
            #expect(played == Self.play(.ios17, .seeded, seed: seed, steps), "seed \(seed) replays")
            let banner = Self.play(.ios17, .banner, steps)
            let fullScreen = Self.play(.ios17, .fullScreen, steps)
            #expect(played == banner || played == fullScreen)
            banners += played == banner ? 1 : 0
        }
        #expect((1..<32).contains(banners), "both presentations drawn over 32 seeds")
    }
}
