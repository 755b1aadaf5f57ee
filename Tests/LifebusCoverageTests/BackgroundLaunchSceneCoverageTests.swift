import LifebusCoverage
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The journal of a scene app launched into the background by a silent push names S47 when it connects no scene and
/// S48 when it connects one (`connectsSceneAtBackgroundLaunch`), S50 when that connect came behind the lock, and S51
/// the wake that hands a withheld payload to a running app (from ios15); none of them under a profile without scenes.
@Suite struct BackgroundLaunchSceneCoverageTests {
    /// A silent push launching A into the background, its scene connected there when `connects`.
    private func pushLaunch(_ journal: inout JournalFixture, connects: Bool) {
        let cause = journal.fire("push A")
        journal.moved("A", .didFinishLaunching, .notRunning, .background, cause: cause)
        if connects {
            journal.moved("A", .willConnectTo, .background, .background, cause: cause)
            journal.moved("A", .sceneDidEnterBackground, .background, .background, cause: cause)
        }
        journal.push("A", .delivered)
        journal.moved("A", .didReceiveRemoteNotification, .background, .background, cause: cause)
    }

    @Test func aPushLaunchWithoutAndWithASceneNamesS47AndS48() {
        var journal = JournalFixture()
        for profile in [Profile.ios7, .ios15] {
            journal.run(profile)
            pushLaunch(&journal, connects: false)
            pushLaunch(&journal, connects: true)
        }
        let rows = journal.reached()
        #expect(rows["ios15"]?.contains("S47") == true, "\(rows)")
        #expect(rows["ios15"]?.contains("S48") == true, "\(rows)")
        #expect(rows["ios15"]?.contains("S50") == false, "\(rows)")
        #expect(rows["ios7"]?.contains("S47") == false, "\(rows)")
    }

    @Test func aConnectBehindTheLockNamesS50AndTheWakesHandOverS51() {
        var journal = JournalFixture()
        for profile in [Profile.ios13, .ios15] {
            journal.run(profile)
            journal.protectedData(available: false)
            pushLaunch(&journal, connects: true)
            journal.protectedData(available: true)
            let wake = journal.fire("wake")
            journal.moved("A", .protectedDataDidBecomeAvailable, .background, .background, cause: wake)
            if profile.restoresInteractionState {
                journal.moved("A", .restoreInteractionState, .background, .background, cause: wake)
            }
        }
        let rows = journal.reached()
        #expect(rows["ios13"]?.contains("S50") == true, "\(rows)")
        #expect(rows["ios15"]?.contains("S51") == true, "\(rows)")
        #expect(rows["ios13"]?.contains("S51") == false, "\(rows)")
    }
}
