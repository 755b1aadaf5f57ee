public import LifebusLifecycle
public import LifebusProtocol

/// What happened on the bus, arranged for drawing: one lane per app (its states as spans, its app-level callbacks,
/// how it ended, its marks, a sub-lane per scene of a scene app, its `BGTask`s and its pushes), the controller events
/// that caused transitions, and the stretches the device's protected data was unavailable. Built from journal
/// entries by
/// `Timeline(entries:apps:)`; rendered by `SVGTimeline`, `ChromeTrace` and `TimelineText`.
///
/// A plain value (`Sendable`). Times are the journal's: milliseconds on the broker's monotonic clock since it
/// started. Invariants: lanes are in order of each app's first entry; within a lane spans are in time order and do
/// not overlap; `startMs <= endMs`, and every time in the timeline lies between them. A scene callback is in its
/// scene's sub-lane, never in the app's `callbacks`; an app-delegate app has no sub-lanes.
public struct Timeline: Sendable, Equatable {
    /// One app's row.
    public struct Lane: Sendable, Equatable {
        public var app: String
        public var spans: [StateSpan] = []
        public var callbacks: [CallbackRun] = []
        public var endings: [Ending] = []
        public var marks: [Mark] = []
        /// The app's scenes in order of their first entry (a reconnect makes a new scene of the same session).
        public var scenes: [SceneLane] = []
        /// The app's `BGTask`s, in order of their first record (a task submitted again after it ran is a new run).
        public var tasks: [TaskRun] = []
        /// Every step of the app's pushes (`delivered`, `deferred`, `answered`, `late`), in journal order; the
        /// push's completion budget is its `didReceiveRemoteNotification` callback's, whose `fetchResult` it sets.
        public var pushes: [PushStep] = []

        public init(app: String) {
            self.app = app
        }
    }

    /// One scene's row under its app's: the scene's states from its first callback until it disconnected (or its
    /// app ended), and its scene callbacks. Invariant: `spans` are in time order and do not overlap.
    public struct SceneLane: Sendable, Equatable {
        public var scene: SceneID
        public var session: SceneSessionID
        public var spans: [SceneSpan] = []
        public var callbacks: [CallbackRun] = []

        public init(scene: SceneID, session: SceneSessionID) {
            self.scene = scene
            self.session = session
        }

        /// `scene 3 · session 2`: how the lane is named in every rendering.
        public var label: String { "scene \(scene.number) · session \(session.number)" }
    }

    /// A stretch of time a scene spent in one scene state; `seq` is the journal number of the transition that
    /// started it.
    public struct SceneSpan: Sendable, Equatable {
        public var seq: Int64
        public var state: SceneState
        public var startMs: Double
        public var endMs: Double
    }

    /// A stretch of time an app spent in one state; `seq` is the journal number of the transition that started it.
    public struct StateSpan: Sendable, Equatable {
        public var seq: Int64
        public var state: LifecycleState
        public var startMs: Double
        public var endMs: Double
    }

    /// One callback: sent at `sentMs`, answered after `latencyMs` (`nil`: never answered), against `budgetMs`.
    public struct CallbackRun: Sendable, Equatable {
        public var seq: Int64
        public var callback: LifecycleCallback
        public var from: LifecycleState
        public var to: LifecycleState
        public var sentMs: Double
        public var latencyMs: Double?
        public var handlerMs: Double?
        public var budgetMs: Double
        public var outcome: TransitionOutcome
        public var cause: EventCause?
        /// A scene callback's scene and its move (`from`/`to` stay the app's aggregate states).
        public var scene: TransitionScene?
        /// A `didReceiveRemoteNotification`'s result, from the push record that followed its answer (`answered` or
        /// `late`); `nil` for other callbacks and a push not answered.
        public var fetchResult: BackgroundFetchResult?

        /// Whether the callback used more than its budget: answered late, or never answered before the watchdog.
        /// (One cut short by a crash, jetsam or a kill did not run out of time.)
        public var overBudget: Bool {
            guard let latencyMs else { return outcome == .watchdog }
            return latencyMs > budgetMs || outcome == .late
        }

        /// How long the callback ran as drawn: its latency, or, never answered, up to when it was ended.
        public var drawnMs: Double {
            latencyMs ?? (outcome == .watchdog ? budgetMs : 0)
        }
    }

    /// An app's process ended: by the watchdog, jetsam, a crash, or on purpose (`killed`).
    public struct Ending: Sendable, Equatable {
        public var seq: Int64
        public var atMs: Double
        public var outcome: TransitionOutcome
        /// Why, for people: `watchdog: didEnterBackground not answered within 5000 ms`.
        public var reason: String

        /// Whether this ending is a failure (everything but an intended kill).
        public var isFailure: Bool { outcome != .killed }
    }

    /// A named moment an app reported (`state-saved`).
    public struct Mark: Sendable, Equatable {
        public var seq: Int64
        public var name: String
        public var atMs: Double
    }

    /// A controller event (call, sms, home…) at the time it was fired.
    public struct Event: Sendable, Equatable {
        public var eventID: Int64
        public var label: String
        public var atMs: Double
    }

    public var lanes: [Lane]
    public var events: [Event]
    /// When the device's protected data was unavailable, in time order, not overlapping.
    public var locks: [ProtectedDataLock]
    public var startMs: Double
    public var endMs: Double

    public init(lanes: [Lane], events: [Event], locks: [ProtectedDataLock] = [], startMs: Double, endMs: Double) {
        self.lanes = lanes
        self.events = events
        self.locks = locks
        self.startMs = startMs
        self.endMs = endMs
    }

    /// The duration the timeline covers.
    public var durationMs: Double { endMs - startMs }
}
