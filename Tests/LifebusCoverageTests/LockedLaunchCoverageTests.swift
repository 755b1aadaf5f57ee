import LifebusCoverage
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The journal of a scene app launched behind the lock names S45 (its scene connected by the user's launch after the
/// unlock, the app hearing protected data came back in that launch) and S46 (its scene connected by the wake), and
/// neither under a profile without scenes.
@Suite struct LockedLaunchCoverageTests {
    /// The scene callbacks of a scene connecting and coming to the front, with the net change of protected data the
    /// connect's resume tells the app.
    private func connectsAfterTheUnlock(_ journal: inout JournalFixture, cause: EventCause) {
        journal.moved("A", .willConnectTo, .suspended, .background, cause: cause)
        journal.moved("A", .protectedDataDidBecomeAvailable, .background, .background, cause: cause)
        journal.moved("A", .sceneWillEnterForeground, .background, .inactive, cause: cause)
        journal.moved("A", .sceneDidBecomeActive, .inactive, .active, cause: cause)
    }

    @Test func theLaunchAfterTheUnlockNamesS45() {
        var journal = JournalFixture()
        for profile in [Profile.ios7, .ios15] {
            journal.run(profile)
            journal.protectedData(available: true)
            connectsAfterTheUnlock(&journal, cause: journal.fire("launch A"))
        }
        let rows = journal.reached()
        #expect(rows["ios15"]?.contains("S45") == true, "\(rows)")
        #expect(rows["ios15"]?.contains("S46") == false, "\(rows)")
        #expect(rows["ios7"]?.contains("S45") == false, "\(rows)")
    }

    @Test func theWakeThatConnectsASceneNamesS46() {
        var journal = JournalFixture()
        for profile in [Profile.ios7, .ios13] {
            journal.run(profile)
            journal.protectedData(available: true)
            connectsAfterTheUnlock(&journal, cause: journal.fire("wake"))
        }
        let rows = journal.reached()
        #expect(rows["ios13"]?.contains("S46") == true, "\(rows)")
        #expect(rows["ios13"]?.contains("S45") == false, "\(rows)")
        #expect(rows["ios7"]?.contains("S46") == false, "\(rows)")
    }
}
