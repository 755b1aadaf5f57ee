import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline

/// A crowded timeline built in code for the layout tests: three apps with long ids; bursts of callbacks a fraction
/// of a millisecond apart, each caused by an event with a long label; marks with long names close together; a
/// watchdog and a crash; a scene app with three scenes whose callbacks also come in bursts; and, unless
/// `idleGapMs` is 0, an idle gap of that long between two busy stretches.
enum BusyTimeline {
    static let mail = "com.example.an.extremely.long.application.identifier.Mail"
    static let short = "com.example.S"
    static let notes = "com.example.scenes.AnotherVeryLongSceneApplicationNotes"

    static func entries(idleGapMs: Double = 3_580_000) -> [JournalEntry] {
        var builder = Builder()
        for (round, start) in [0.0, 40, 40 + idleGapMs].enumerated() {
            for app in [mail, short] {
                builder.cycle(app: app, at: start + (app == short ? 0.05 : 0), round: round)
            }
            builder.scenes(at: start + 3, round: round)
        }
        builder.watchdog(app: short, at: 60 + idleGapMs)
        return builder.entries
    }

    static func timeline(idleGapMs: Double = 3_580_000) -> Timeline {
        Timeline(entries: entries(idleGapMs: idleGapMs))
    }

    /// Appends entries in journal order.
    private struct Builder {
        var entries: [JournalEntry] = []
        var seq: Int64 = 0
        var eventID: Int64 = 0

        mutating func cause(_ label: String) -> EventCause {
            eventID += 1
            return EventCause(eventID: eventID, event: label)
        }

        mutating func transition(
            _ app: String, _ callback: LifecycleCallback?, _ from: LifecycleState, _ to: LifecycleState, at: Double,
            latency: Double? = 0.1, outcome: TransitionOutcome = .ok, cause: EventCause? = nil,
            scene: TransitionScene? = nil
        ) {
            seq += 1
            entries.append(.transition(TransitionRecord(
                seq: seq, app: app, pid: 1, callback: callback, cause: cause, from: from, to: to, firedMs: at,
                sentMs: at, answeredMs: latency.map { at + $0 }, handlerMs: nil, budgetMs: 5_000, outcome: outcome,
                wallMs: 0, scene: scene
            )))
        }

        mutating func mark(_ app: String, _ name: String, at: Double) {
            seq += 1
            entries.append(.mark(MarkRecord(seq: seq, app: app, pid: 1, name: name, data: nil, atMs: at, wallMs: 0)))
        }

        /// Launch, active, resign, enter background: 0.2 ms apart, with two marks.
        mutating func cycle(app: String, at start: Double, round: Int) {
            let launch = cause("launch \(app) --with-a-long-argument round \(round)")
            let home = cause("home pressed while \(app) was in front, round \(round)")
            let first: LifecycleState = round == 0 ? .notRunning : .background
            transition(app, round == 0 ? .didFinishLaunching : .willEnterForeground, first, .inactive, at: start,
                       cause: launch)
            transition(app, .didBecomeActive, .inactive, .active, at: start + 0.2, cause: launch)
            mark(app, "state-restored-from-a-long-archive", at: start + 0.3)
            transition(app, .willResignActive, .active, .inactive, at: start + 0.4, cause: home)
            transition(app, .didEnterBackground, .inactive, .background, at: start + 0.6, latency: 7_000,
                       outcome: .late, cause: home)
            mark(app, "state-saved-with-everything-in-it", at: start + 0.7)
        }

        /// Three scenes connect and come to the front, one goes to the background.
        mutating func scenes(at start: Double, round: Int) {
            let open = cause("scene open \(BusyTimeline.notes) --url notes://a/very/long/url round \(round)")
            var at = start
            for number in UInt32(1)...3 {
                let ids = (SceneID(number + UInt32(round) * 3), SceneSessionID(number + UInt32(round) * 3))
                let steps: [(LifecycleCallback, SceneState, SceneState)] = [
                    (.willConnectTo, .unattached, .foregroundInactive),
                    (.sceneWillEnterForeground, .foregroundInactive, .foregroundInactive),
                    (.sceneDidBecomeActive, .foregroundInactive, .foregroundActive),
                    (.sceneWillResignActive, .foregroundActive, .foregroundInactive),
                    (.sceneDidEnterBackground, .foregroundInactive, .background),
                ]
                for (callback, from, to) in steps {
                    let scene = TransitionScene(scene: ids.0, session: ids.1, from: from, to: to)
                    transition(BusyTimeline.notes, callback, .active, .active, at: at, cause: open, scene: scene)
                    at += 0.1
                }
            }
            mark(BusyTimeline.notes, "scene-saved", at: at)
        }

        /// An unanswered didEnterBackground, ended by the watchdog.
        mutating func watchdog(app: String, at: Double) {
            transition(app, .willResignActive, .background, .inactive, at: at, cause: cause("activate \(app)"))
            transition(app, .didEnterBackground, .inactive, .notRunning, at: at + 0.1, latency: nil,
                       outcome: .watchdog, cause: cause("home"))
        }
    }
}
