public import LifebusLifecycle
public import LifebusProtocol

extension Timeline {
    /// One run of a `BGTask` of an app: submitted, launched (its launch handler called), maybe told it expires, and
    /// ended — completed (with `success`), expired (the app killed, `backgroundTaskExpired`) or cancelled — or still
    /// pending or running when the journal ends.
    ///
    /// Invariants: the times that are set are in order `submittedMs <= launchedMs <= expiringMs <= endMs`;
    /// `launchedMs` is set for `running`, `completed` and `expired`; `endMs` is set exactly when the run ended.
    public struct TaskRun: Sendable, Equatable {
        /// Where the run is at the end of the journal.
        public enum Outcome: String, Sendable, Equatable {
            case pending, running, completed, expired, cancelled
        }

        /// The journal number of its first record.
        public var seq: Int64
        public var identifier: String
        public var kind: BackgroundTaskKind
        public var submittedMs: Double?
        public var launchedMs: Double?
        public var expiringMs: Double?
        public var endMs: Double?
        public var outcome: Outcome
        /// `completed`'s `setTaskCompleted(success:)`.
        public var success: Bool?
        /// The time it has from its launch to complete: an `appRefresh` task's `Profile.appRefreshBudget`; `nil` for
        /// a `processing` or `continuedProcessing` task, which runs until the user returns or cancels it.
        public var budgetMs: Double?

        /// How long it ran: from its launch to its end (`nil`: not launched, or not ended).
        public var ranMs: Double? {
            guard let launchedMs, let endMs else { return nil }
            return endMs - launchedMs
        }

        /// Whether it failed its budget: expired (the app was killed for it), or completed after its budget.
        public var overBudget: Bool {
            if outcome == .expired { return true }
            guard let budgetMs, let ranMs else { return false }
            return ranMs > budgetMs
        }

        /// `completed`, `completed (failed)`, `expired: app killed`, `cancelled`, `running`, `pending`: how it ended,
        /// as every rendering says it.
        public var outcomeText: String {
            switch outcome {
            case .completed: success == false ? "completed (failed)" : "completed"
            case .expired: "expired: app killed"
            case .pending, .running, .cancelled: outcome.rawValue
            }
        }
    }

    /// One step of a push's delivery to an app, as journaled.
    public struct PushStep: Sendable, Equatable {
        public var seq: Int64
        public var event: PushDeliveryRecord.Event
        /// `answered`'s and `late`'s fetch result.
        public var result: BackgroundFetchResult?
        public var atMs: Double
        /// `presented`'s presentation options (a visible notification the app in front was asked about).
        public var presentation: NotificationPresentationOptions?

        /// `push deferred`, `push answered newData`, `push presented none`: the step as every rendering says it.
        public var text: String {
            if let presentation { return "push \(event.rawValue) \(presentation.summary)" }
            return "push \(event.rawValue)" + (result.map { " \($0.rawValue)" } ?? "")
        }
    }

    /// A stretch the device's protected data was unavailable (from the record saying so to the one saying it is
    /// available again, or to the end of the timeline: `reopened` false).
    public struct ProtectedDataLock: Sendable, Equatable {
        public var seq: Int64
        public var startMs: Double
        public var endMs: Double
        /// Whether a record said the data became available again at `endMs`.
        public var reopened: Bool

        public init(seq: Int64, startMs: Double, endMs: Double, reopened: Bool) {
            self.seq = seq
            self.startMs = startMs
            self.endMs = endMs
            self.reopened = reopened
        }
    }
}
