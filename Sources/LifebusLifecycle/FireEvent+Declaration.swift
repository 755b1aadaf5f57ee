/// Each event's declaration: everything the tables derive from (the wire's validation and schema test, the CLI's
/// subcommand, flags and help, the one-shot fast path, the fuzzer's candidates, the coverage check). One `case`
/// per event; the compiler refuses an event without one.
extension FireEvent {
    /// One event as the tables see it. Immutable; a class so that the one made per event is shared, not copied
    /// field by field at each look (every `fire` validates against its event's).
    ///
    /// Invariants (checked by `EventTablesTests`): `forms` is not empty; an event takes actions in all its forms or
    /// in none, levels likewise; `byUser` appears only beside a plain form.
    public final class Declaration: Sendable {
        /// What the event names besides itself.
        public enum Target: Sendable, Hashable {
            /// Nothing: it acts on the device (its front app, its screen).
            case device
            /// One app (`app` on the wire, an argument on the command line).
            case app
        }

        /// One way to fire the event and how often the fuzzer picks it (relative to every other candidate step;
        /// `0`: never).
        public struct Form: Sendable, Hashable {
            public let detail: Detail
            public let fuzzWeight: Int

            init(_ detail: Detail, fuzzWeight: Int) {
                self.detail = detail
                self.fuzzWeight = fuzzWeight
            }
        }

        /// What a form adds to the bare event.
        public enum Detail: Sendable, Hashable {
            case plain
            case action(FireAction)
            case level(MemoryWarningLevel)
            /// `terminate --by-user`.
            case byUser
        }

        /// The CLI subcommand's abstract.
        public let summary: String
        public let target: Target
        /// Every form, the default first (an action or level given is the first one's when absent, unless
        /// `requiresAction`), in the order the CLI's help and the fuzzer's candidates list them.
        public let forms: [Form]
        /// The heading of the section of `Protocol/lifecycle.md` whose rows say what the event does (the coverage
        /// family `lifebus coverage` counts its rows in).
        public let contractSection: String

        /// The actions the event takes, the default first; empty when it takes none.
        public let actions: [FireAction]
        /// The warning levels the event takes, the default first; empty when it takes none.
        public let levels: [MemoryWarningLevel]
        /// Whether `byUser` may be `true`.
        public let takesByUser: Bool
        /// Whether an action must be given (no form is the default: `scene`).
        public let requiresAction: Bool

        init(summary: String, target: Target, forms: [Form], contractSection: String, requiresAction: Bool = false) {
            self.summary = summary
            self.target = target
            self.forms = forms
            self.contractSection = contractSection
            self.requiresAction = requiresAction
            actions = forms.compactMap { if case .action(let action) = $0.detail { action } else { nil } }
            levels = forms.compactMap { if case .level(let level) = $0.detail { level } else { nil } }
            takesByUser = forms.contains { $0.detail == .byUser }
        }
    }

    /// The event's declaration, made once (every `fire` validates against it).
    public var declaration: Declaration { Self.declarations[position] }

    /// Every event's declaration, in `allCases`' order (at each event's `position`).
    private static let declarations = allCases.map(\.declared)

    private var declared: Declaration {
        switch self {
        case .call:
            Declaration(
                summary: "An incoming call: rings (the default), or is answered, declined or ended.",
                target: .device,
                forms: [.init(.action(.ring), fuzzWeight: 3), .init(.action(.answer), fuzzWeight: 3),
                        .init(.action(.decline), fuzzWeight: 2), .init(.action(.end), fuzzWeight: 3)],
                contractSection: "Calls")
        case .sms:
            Declaration(
                summary: "An SMS alert: shown (the default) or as a banner, then replied to or dismissed.",
                target: .device,
                forms: [.init(.action(.show), fuzzWeight: 3), .init(.action(.reply), fuzzWeight: 3),
                        .init(.action(.dismiss), fuzzWeight: 2), .init(.action(.banner), fuzzWeight: 1)],
                contractSection: "SMS and calendar alerts")
        case .calendar:
            Declaration(
                summary: "A calendar alert: shown (the default), then viewed or dismissed.",
                target: .device,
                forms: [.init(.action(.show), fuzzWeight: 2), .init(.action(.view), fuzzWeight: 2),
                        .init(.action(.dismiss), fuzzWeight: 2)],
                contractSection: "SMS and calendar alerts")
        case .sleep:
            Declaration(
                summary: "The sleep/wake button locks the device.", target: .device,
                forms: [.init(.plain, fuzzWeight: 2)], contractSection: "Sleep, wake, home")
        case .wake:
            Declaration(
                summary: "The device wakes and is unlocked.", target: .device,
                forms: [.init(.plain, fuzzWeight: 3)], contractSection: "Sleep, wake, home")
        case .home:
            Declaration(
                summary: "The home button: the foreground app leaves.", target: .device,
                forms: [.init(.plain, fuzzWeight: 3)], contractSection: "Sleep, wake, home")
        case .launch:
            Declaration(
                summary: "The user taps an app's icon: it comes to the front (launching when connected but not "
                    + "running).",
                target: .app, forms: [.init(.plain, fuzzWeight: 8)], contractSection: "Launch and activate")
        case .activate:
            Declaration(
                summary: "Bring a running app to the front (as the app switcher does).", target: .app,
                forms: [.init(.plain, fuzzWeight: 3)], contractSection: "Launch and activate")
        case .memoryWarning:
            Declaration(
                summary: "A low-memory warning to every running app; critical also ends suspended apps (jetsam).",
                target: .device,
                forms: [.init(.level(.warning), fuzzWeight: 2), .init(.level(.critical), fuzzWeight: 1)],
                contractSection: "Memory")
        case .terminate:
            Declaration(
                summary: "Terminate an app: by the system (willTerminate), or with --by-user as from the app "
                    + "switcher.",
                target: .app, forms: [.init(.plain, fuzzWeight: 1), .init(.byUser, fuzzWeight: 1)],
                contractSection: "Terminate")
        case .scene:
            // Weighed for the fuzzer's scene apps (`--fact scenes`), which can take every form; reconnecting a
            // reclaimed session weighs most, so runs come back to what they reclaimed.
            Declaration(
                summary: "A scene app's windows: open a new one, close or reclaim one, reconnect a session, focus "
                    + "one.",
                target: .app,
                forms: [.init(.action(.open), fuzzWeight: 2), .init(.action(.close), fuzzWeight: 1),
                        .init(.action(.reclaim), fuzzWeight: 2), .init(.action(.reconnect), fuzzWeight: 3),
                        .init(.action(.focus), fuzzWeight: 2)],
                contractSection: "Scenes", requiresAction: true)
        case .bgtask:
            // The fuzzer weighs bgtask and push only under their facts (`--fact task=ID`, `--fact pushes`), so
            // seeds without them keep their steps; its apps submit refresh tasks, which no user cancels.
            Declaration(
                summary: "A BGTaskScheduler task of an app: run a submitted request now (the default), or cancel a "
                    + "running continued-processing task.",
                target: .app,
                forms: [.init(.action(.run), fuzzWeight: 3), .init(.action(.cancel), fuzzWeight: 0)],
                contractSection: "Background execution and data protection")
        case .push:
            Declaration(
                summary: "A remote notification to an app: silent (content-available, the default) or visible "
                    + "(alert), or visible and tapped at once (tap).",
                target: .app,
                // The fuzzer weighs `silent` and `alert` with `--fact pushes`, `tap` only with `--fact taps`, so the
                // seeds of runs with pushes alone keep their steps.
                forms: [.init(.action(.silent), fuzzWeight: 3), .init(.action(.alert), fuzzWeight: 1),
                        .init(.action(.tap), fuzzWeight: 1)],
                contractSection: "Background execution and data protection")
        case .power:
            // The fuzzer weighs the conditions only with `--fact processing=…` (a task they hold back), and only the
            // form that changes them, so the seeds of runs without it keep their steps.
            Declaration(
                summary: "The device's power: plugged in (external) or on its battery. Processing tasks that require "
                    + "external power wait for it.",
                target: .device,
                forms: [.init(.action(.external), fuzzWeight: 2), .init(.action(.battery), fuzzWeight: 2)],
                contractSection: "Background execution and data protection", requiresAction: true)
        case .network:
            Declaration(
                summary: "The device's network: online or offline. Processing tasks that require connectivity wait "
                    + "for it.",
                target: .device,
                forms: [.init(.action(.online), fuzzWeight: 2), .init(.action(.offline), fuzzWeight: 2)],
                contractSection: "Background execution and data protection", requiresAction: true)
        }
    }
}
