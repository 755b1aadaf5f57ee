import LifebusCore
import LifebusCoverage
import LifebusLifecycle
import LifebusProtocol
import Testing

/// How journal records name rows: by cause, callback, states, outcome, profile and the rest of their event.
@Suite struct LifecycleCoverageTests {
    @Test func causeLabelsReadBackAsTheEventsFired() {
        #expect(EventCause(eventID: 1, event: "call").controllerEvent == .call(.ring))
        #expect(EventCause(eventID: 1, event: "call --answer").controllerEvent == .call(.answer))
        #expect(EventCause(eventID: 1, event: "sms --reply").controllerEvent == .sms(.open))
        #expect(EventCause(eventID: 1, event: "calendar --view").controllerEvent == .calendar(.open))
        #expect(EventCause(eventID: 1, event: "memory-warning").controllerEvent == .memoryWarning(.warning))
        #expect(EventCause(eventID: 1, event: "memory-warning --level critical").controllerEvent
            == .memoryWarning(.critical))
        #expect(EventCause(eventID: 1, event: "launch com.example.B").controllerEvent == .launch("com.example.B"))
        #expect(EventCause(eventID: 1, event: "terminate --app com.example.B --by-user").controllerEvent
            == .terminate("com.example.B", byUser: true))
        #expect(EventCause(eventID: 1, event: "teleport").controllerEvent == nil)
        #expect(EventCause(eventID: 1, event: "call --view").controllerEvent == nil)
        #expect(EventCause(eventID: 1, event: "launch").controllerEvent == nil)
    }

    @Test func oneTransitionCanNameItsRowUnderEachProfile() {
        var journal = JournalFixture()
        for profile in Profile.allCases {
            journal.run(profile)
            journal.moved("A", .didFinishLaunching, .notRunning, .inactive, cause: nil)
            let ring = journal.fire("call")
            journal.moved("A", .willResignActive, .active, .inactive, cause: ring)
            let answer = journal.fire("call --answer")
            if profile == .ios3 {
                journal.moved("A", .willTerminate, .inactive, .notRunning, cause: answer)
            } else {
                journal.moved("A", .didEnterBackground, .inactive, .background, cause: answer)
            }
        }
        #expect(journal.reached() == Dictionary(uniqueKeysWithValues: Profile.allCases.map {
            ($0.rawValue, ["R01", "R03", "R70"])
        }))
    }

    @Test func sceneCallbacksNameTheSceneRowsUnderTheProfilesWithScenes() {
        var journal = JournalFixture()
        for profile in [Profile.ios7, .ios17] {
            journal.run(profile)
            let launch = journal.fire("launch A")
            journal.moved("A", .didFinishLaunching, .notRunning, .background, cause: launch)
            journal.moved("A", .configurationForConnecting, .background, .background, cause: launch)
            journal.moved("A", .willConnectTo, .background, .background, cause: launch)
            let home = journal.fire("home")
            journal.moved("A", .sceneWillResignActive, .active, .inactive, cause: home)
            journal.moved("A", .sceneDidEnterBackground, .inactive, .background, cause: home)
            let reclaim = journal.fire("scene reclaim A 1")
            journal.moved("A", .stateRestorationActivity, .suspended, .background, cause: reclaim)
            journal.moved("A", .sceneDidDisconnect, .background, .background, cause: reclaim)
            let reconnect = journal.fire("scene reconnect A 1")
            journal.moved("A", .willConnectTo, .suspended, .background, cause: reconnect)
        }
        let rows = journal.reached()
        #expect(rows["ios17"]?.filter { $0.hasPrefix("S") } == ["S01", "S10", "S26", "S27"], "\(rows)")
        #expect(rows["ios7"]?.filter { $0.hasPrefix("S") } == [], "\(rows)")
    }

    @Test func taskRecordsAndProtectedDataNameTheBackgroundRowsUnderTheProfilesThatHaveThem() {
        var journal = JournalFixture()
        for profile in [Profile.ios7, .ios17, .ios26] {
            journal.run(profile)
            let run = journal.fire("bgtask A refresh")
            journal.moved("A", .didFinishLaunching, .notRunning, .background, cause: run)
            journal.task("A", "refresh", .appRefresh, .launched)
            journal.moved("A", .performBackgroundTask, .background, .background, cause: run)
            journal.task("A", "refresh", .appRefresh, .expiring)
            journal.moved("A", .backgroundTaskWillExpire, .background, .background, cause: nil)
            journal.task("A", "refresh", .appRefresh, .completed, success: false)
            journal.moved("A", nil, .background, .suspended, cause: nil)
            journal.moved("A", nil, .suspended, .background, cause: nil)
            journal.task("A", "refresh", .appRefresh, .launched)
            journal.moved("A", .performBackgroundTask, .background, .background, cause: nil)
            journal.task("A", "refresh", .appRefresh, .completed, success: true)
            journal.task("A", "clean", .processing, .launched)
            journal.task("A", "clean", .processing, .expired)
            let sleep = journal.fire("sleep")
            journal.moved("A", .protectedDataWillBecomeUnavailable, .background, .background, cause: sleep)
            journal.protectedData(available: false)
            let wake = journal.fire("wake")
            journal.protectedData(available: true)
            journal.moved("A", .protectedDataDidBecomeAvailable, .background, .background, cause: wake)
            journal.task("A", "export", .continuedProcessing, .cancelled)
        }
        let background = journal.reached().mapValues { $0.filter { $0.hasPrefix("B") } }
        // B05 needs a resume caused by bgtask, B22 an unlock within the delay: neither happened.
        let modern = ["B04", "B06", "B07", "B08", "B20", "B21"]
        #expect(background == ["ios7": [], "ios17": modern, "ios26": ["B04", "B06", "B07", "B08", "B12", "B20", "B21"]])
        let ios7 = LifecycleCoverage(entries: journal.entries, app: "A").apps.first?.profiles.first
        let missed = ios7?.neverReached.map(\.id).filter { $0.hasPrefix("B") } ?? []
        let pushRows: Set = ["B42", "B45"]
        #expect(!missed.isEmpty && missed.allSatisfy { $0.hasPrefix("B3") || pushRows.contains($0) },
                "under ios7 only the push rows: \(missed)")
    }

    @Test func aDeferredTaskNamesB64WhereThereAreTasks() {
        var journal = JournalFixture()
        for profile in [Profile.ios7, .ios13] {
            journal.run(profile)
            journal.task("A", "refresh", .appRefresh, .deferred)
        }
        let forceQuit = journal.reached().mapValues { $0.filter { $0.hasPrefix("B6") } }
        #expect(forceQuit == ["ios7": [], "ios13": ["B64"]])
    }

    @Test func anUnlockWithinTheDelayIsB22AndAResumeByBgtaskIsB05() {
        var journal = JournalFixture()
        journal.run(.ios15)
        let sleep = journal.fire("sleep")
        journal.moved("A", .protectedDataWillBecomeUnavailable, .background, .background, cause: sleep)
        let wake = journal.fire("wake")
        journal.moved("A", .protectedDataDidBecomeAvailable, .background, .background, cause: wake)
        let run = journal.fire("bgtask A refresh")
        journal.moved("A", nil, .suspended, .background, cause: run)
        journal.task("A", "clean", .processing, .expiring)
        let background = journal.reached().mapValues { $0.filter { $0.hasPrefix("B") } }
        #expect(background == ["ios15": ["B05", "B09", "B20", "B22"]])
    }

    @Test func aNotificationOfferedInFrontNamesB60AndB63FromIOS13() {
        var journal = JournalFixture()
        for profile in [Profile.ios7, .ios26] {
            journal.run(profile)
            let active = journal.fire("push --alert com.example.A")
            journal.push("A", .delivered)
            if profile == .ios26 {
                journal.moved("A", .willPresentNotification, .active, .active, cause: active)
                let inactive = journal.fire("push --alert com.example.A")
                journal.moved("A", .willPresentNotification, .inactive, .inactive, cause: inactive)
            }
        }
        let presented = journal.reached().mapValues { $0.filter { $0.hasPrefix("B6") } }
        #expect(presented == ["ios7": [], "ios26": ["B60", "B63"]])
    }

    @Test func theSameOfferToASceneAppNamesB61() {
        var journal = JournalFixture()
        journal.run(.ios26)
        journal.moved("S", .configurationForConnecting, .background, .background, cause: nil)  // a scene app
        journal.moved("S", .willPresentNotification, .active, .active, cause: journal.fire("push --alert S"))
        #expect(journal.reached(app: "S").mapValues { $0.filter { $0.hasPrefix("B6") } } == ["ios26": ["B61"]])
        let run = LifecycleCoverage(entries: journal.entries, app: "S").apps.first?.profiles.first
        #expect(run?.notApplicable.contains { $0.id == "B60" } == true)
    }

    @Test func silentPushesNameThePushRowsFromIOS7() {
        var journal = JournalFixture()
        for profile in [Profile.ios4, .ios7, .ios26] {
            journal.run(profile)
            let cold = journal.fire("push com.example.A")
            journal.moved("A", .didFinishLaunching, .notRunning, .background, cause: cold)
            journal.moved("A", .didReceiveRemoteNotification, .background, .background, cause: cold)
            let warm = journal.fire("push --silent com.example.A")
            journal.moved("A", nil, .suspended, .background, cause: warm)
            journal.moved("A", .didReceiveRemoteNotification, .background, .notRunning, .watchdog, cause: warm)
            journal.push("A", .deferred)
            let alert = journal.fire("push --alert com.example.A")
            journal.moved("A", nil, .suspended, .background, cause: alert)
            journal.push("A", .discarded)
            let launch = journal.fire("launch com.example.A")
            journal.moved("A", .didReceiveRemoteNotification, .active, .active, cause: launch)
        }
        let pushes = journal.reached().mapValues { $0.filter { $0.hasPrefix("B3") || $0.hasPrefix("B4") } }
        let rows = ["B30", "B31", "B32", "B34", "B42", "B45"]
        #expect(pushes == ["ios4": [], "ios7": rows, "ios26": rows])
    }

    @Test func theNetChangeAtAResumeNamesB48B50AndB51WhereTheProfileQueuesIt() {
        var journal = JournalFixture()
        for profile in [Profile.ios7, .ios17] {
            journal.run(profile)
            let locked = journal.fire("push com.example.A")
            journal.moved("A", nil, .suspended, .background, cause: locked)
            journal.moved("A", .protectedDataWillBecomeUnavailable, .background, .background, cause: locked)
            journal.moved("A", .didReceiveRemoteNotification, .background, .background, cause: locked)
            let launch = journal.fire("launch com.example.A")
            journal.moved("A", .willEnterForeground, .suspended, .inactive, cause: launch)
            journal.moved("A", .protectedDataDidBecomeAvailable, .inactive, .inactive, cause: launch)
            let unlocked = journal.fire("push com.example.A")
            journal.moved("A", nil, .suspended, .background, cause: unlocked)
            journal.moved("A", .protectedDataDidBecomeAvailable, .background, .background, cause: unlocked)
        }
        let rows = journal.reached().mapValues { $0.filter { ["B48", "B49", "B50", "B51"].contains($0) } }
        #expect(rows == ["ios7": [], "ios17": ["B48", "B50", "B51"]])
    }

    @Test func theBackgroundRowsApplyToAppDelegateAndSceneAppsAlikeButURLsAndTaps() {
        let rows = CoverageRow.all.filter { $0.id.hasPrefix("B") }
        let appDelegateOnly: Set = ["B36", "B37", "B38", "B39", "B60"]
        let sceneOnly: Set = ["B40", "B41", "B61"]
        #expect(rows.count >= 16)
        #expect(rows.filter { !appDelegateOnly.contains($0.id) && !sceneOnly.contains($0.id) }.allSatisfy {
            $0.applies(to: .appDelegate) && $0.applies(to: .scene)
        })
        #expect(rows.filter { appDelegateOnly.contains($0.id) }.allSatisfy {
            $0.applies(to: .appDelegate) && !$0.applies(to: .scene)
        })
        #expect(rows.filter { sceneOnly.contains($0.id) }.allSatisfy {
            !$0.applies(to: .appDelegate) && $0.applies(to: .scene)
        })
    }

    @Test func theProfileTellsAnExitsOnSuspendAppApart() {
        var journal = JournalFixture()
        journal.run(.ios7)
        let answer = journal.fire("call --answer")
        journal.moved("A", .willTerminate, .inactive, .notRunning, cause: answer)
        journal.run(.ios3)
        let again = journal.fire("call --answer")
        journal.moved("A", .willTerminate, .inactive, .notRunning, cause: again)
        #expect(journal.reached() == ["ios7": ["R03", "R04"], "ios3": ["R03"]])
    }

    /// An app that does not adopt scenes lives the app-delegate life of ios7 from ios13 on (lifecycle.md), so the
    /// multitasking rows name its records under every profile with multitasking it can run under, not only ios4/ios7.
    @Test func theMultitaskingRowsApplyUnderEveryProfileWithMultitasking() {
        var journal = JournalFixture()
        let profiles = Profile.allCases.filter { $0.hasMultitasking && $0.sceneSupport != .required }
        for profile in profiles {
            journal.run(profile)
            let answer = journal.fire("call --answer")
            journal.moved("A", .willTerminate, .inactive, .notRunning, cause: answer)
        }
        #expect(journal.reached() == Dictionary(uniqueKeysWithValues: profiles.map { ($0.rawValue, ["R03", "R04"]) }))
    }

    @Test func theRestOfTheEventTellsAReturnFromAReturnBehindTheLock() {
        var journal = JournalFixture()
        journal.run(.ios4)
        let end = journal.fire("call --end")
        journal.moved("A", .willEnterForeground, .suspended, .inactive, cause: end)
        journal.moved("A", .didBecomeActive, .inactive, .active, cause: end)
        let lockedEnd = journal.fire("call --end")
        journal.moved("B", .willEnterForeground, .suspended, .inactive, cause: lockedEnd)
        #expect(journal.reached() == ["ios4": ["R06"]])
        #expect(journal.reached(app: "B") == ["ios4": ["R34"]])
    }

    @Test func outcomesAndRecordsWithoutCauseNameTheirRows() {
        var journal = JournalFixture()
        journal.run(.ios7)
        let critical = journal.fire("memory-warning --level critical")
        journal.moved("A", nil, .suspended, .notRunning, .jetsam, cause: critical)
        journal.moved("B", nil, .suspended, .notRunning, .jetsam, cause: critical)
        journal.moved("A", nil, .suspended, .notRunning, .jetsam, cause: nil)
        let ring = journal.fire("call")
        journal.moved("A", .willResignActive, .active, .notRunning, .crashed, cause: ring)
        journal.moved("A", nil, .active, .notRunning, .crashed, cause: nil)
        let wake = journal.fire("wake")
        journal.moved("A", .didBecomeActive, .inactive, .notRunning, .watchdog, cause: wake)
        journal.moved("A", nil, .notRunning, .notRunning, .killed, cause: nil)
        journal.process("A", .started)
        let shutdown = journal.fire("shutdown")
        journal.moved("A", .willTerminate, .active, .notRunning, cause: shutdown)
        #expect(journal.reached() == ["ios7": ["R23", "R140", "R143", "R142", "R51", "R52", "R80", "R81", "R82",
                                              "R84"]])
    }

    @Test func anAppDroppedForItsOutputReachesTheVanishedAppRows() {
        var journal = JournalFixture()
        journal.run(.ios7)
        let ring = journal.fire("call")
        journal.process("A", .disconnected)
        journal.moved("A", .willResignActive, .active, .notRunning, .disconnected, cause: ring)
        journal.process("A", .disconnected)
        journal.moved("A", nil, .active, .notRunning, .disconnected, cause: nil)
        #expect(journal.reached() == ["ios7": ["R80", "R81"]])
    }

    @Test func aSuspensionWithoutCauseIsATaskEndingOnlyAfterAnEvent() {
        var journal = JournalFixture()
        journal.run(.ios7)
        journal.moved("B", .didFinishLaunching, .notRunning, .background, cause: nil)
        journal.moved("B", .didEnterBackground, .background, .background, cause: nil)
        journal.moved("B", nil, .background, .suspended, cause: nil)
        let home = journal.fire("home")
        journal.moved("A", .didEnterBackground, .inactive, .background, cause: home)
        journal.moved("A", nil, .background, .suspended, cause: nil)
        #expect(journal.reached(app: "B") == ["ios7": ["R72"]])
        #expect(journal.reached() == ["ios7": ["R29", "R90"]], "a home that leaves A in the background, then R90")
    }

    @Test func neverReachedListsOnlyRowsTheProfileCanShow() throws {
        var journal = JournalFixture()
        journal.run(.ios3)
        journal.moved("A", .didFinishLaunching, .notRunning, .inactive, cause: nil)
        let coverage = LifecycleCoverage(entries: journal.entries)
        let run = try #require(coverage.apps.first?.profiles.first)
        let never = run.neverReached.map(\.id)
        #expect(!never.contains("R70"))
        #expect(never.contains("R01"))
        #expect(!never.contains("R04"), "ios3 cannot tell R04 from R03")
        #expect(!never.contains("R02"), "no journal shows R02")
        #expect(coverage.text.contains("A under ios3: 1 of \(run.reached.count + run.neverReached.count) rows reached"))
        #expect(coverage.json["apps"]?[0]?["profiles"]?[0]?["reached"]?[0]?["row"]?.stringValue == "R70")
        #expect(coverage.json["notInJournal"]?.arrayValue?.count == LifecycleCoverage.notInJournal.count)
    }

    @Test func aSceneAppsUnreachableAppDelegateRowsAreNotApplicableNotNeverReached() throws {
        var journal = JournalFixture()
        journal.run(.ios17)
        let launch = journal.fire("launch S")
        journal.moved("S", .didFinishLaunching, .notRunning, .background, cause: launch)
        journal.moved("S", .configurationForConnecting, .background, .background, cause: launch)
        journal.moved("D", .didFinishLaunching, .notRunning, .inactive, cause: nil)
        let coverage = LifecycleCoverage(entries: journal.entries)
        let scene = try #require(coverage.apps.first { $0.app == "S" }?.profiles.first)
        #expect(scene.kind == .scene)
        #expect(scene.notApplicable.map(\.id).contains("R26"), "a scene app never gets willResignActive on home")
        #expect(!scene.neverReached.map(\.id).contains("R26"))
        #expect(scene.neverReached.map(\.id).contains("S10"), "its scene rows still count")
        #expect(scene.neverReached.map(\.id).contains("R50"), "didReceiveMemoryWarning reaches a scene app too")
        let plain = try #require(coverage.apps.first { $0.app == "D" }?.profiles.first)
        #expect(plain.kind == .appDelegate)
        #expect(plain.neverReached.map(\.id).contains("R26") && plain.notApplicable.map(\.id).contains("S10"))
        let observable = scene.reached.count + scene.neverReached.count
        #expect(coverage.text.contains("S (scene app) under ios17: 2 of \(observable) rows reached"),
                "\(coverage.text)")
        #expect(coverage.text.contains("  not applicable to a scene app (\(scene.notApplicable.count) rows): R01 "))
        let json = coverage.json["apps"]?[0]?["profiles"]?[0]
        #expect(json?["kind"]?.stringValue == "scene")
        #expect(json?["notApplicable"]?.arrayValue?.count == scene.notApplicable.count)
    }
}
