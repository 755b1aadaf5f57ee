import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// Each plain schema in `Protocol/schemas/` is compared with what its Swift type does, so the two cannot drift. Every
/// type: the members it writes are declared, and its enum members' values are the Swift enum's cases (`CaseIterable`
/// and `rawValue`, whichever module the enum lives in). A type a peer sends and the receiver checks (`.checked`:
/// params, the callback answer) — the members its `init(json:)` reads, requires and refuses values of, its minimums,
/// found by probing it with a sample varied one member at a time. A type the broker writes and readers take leniently
/// (`.written`: results, records) — the members it always writes (its sample leaves every optional `nil`) are the
/// required ones, but for those with a `default` (absent from older brokers' output). Nested objects (`$ref`, `anyOf`
/// of objects) are their own schemas'.
@Suite struct SchemaDerivationTests {
    /// One wire type: its schema's name, a sample it wrote, its reader (if it reads its wire form), and the Swift
    /// enum behind each member whose values are an enum.
    struct WireType: CustomTestStringConvertible, Sendable {
        enum Direction: Sendable { case checked, written }

        let schema: String
        let direction: Direction
        let sample: JSONValue
        let decode: (@Sendable (JSONValue) throws -> Void)?
        let enums: [String: [String]]
        /// Members no probe can read the rules of: any JSON value (a restoration payload: no value is refused), or a
        /// value whose rules depend on other members (`fire`'s scene members). Their own tests check them
        /// (`SceneWireTests`).
        let unprobed: Set<String>

        init(
            _ schema: String, _ direction: Direction, _ sample: JSONValue, enums: [String: [String]] = [:],
            unprobed: Set<String> = [], decode: (@Sendable (JSONValue) throws -> Void)? = nil
        ) {
            self.schema = schema
            self.direction = direction
            self.sample = sample
            self.decode = decode
            self.enums = enums
            self.unprobed = unprobed
        }

        var testDescription: String { schema }
    }

    static func cases<E: CaseIterable & RawRepresentable>(_: E.Type) -> [String] where E.RawValue == String {
        E.allCases.map(\.rawValue)
    }

    /// The wire names of `NotificationPresentationOptions`, an array's items.
    static let presentationOptions = NotificationPresentationOptions.allOptions.map(\.name)

    static let types: [WireType] = [
        WireType(
            "hello.params", .checked, HelloParams(role: .controller, clientName: "cli", token: "t").json,
            enums: ["role": cases(PeerRole.self)]
        ) { _ = try HelloParams(json: $0) },
        WireType(
            "hello.result", .written,
            HelloResult(role: .app, peer: PeerIdentity(pid: 1, uid: 2, gid: 3), profile: .ios7).json,
            enums: ["role": cases(PeerRole.self), "profile": cases(Profile.self)]
        ) { _ = try HelloResult(json: $0) },
        WireType("ping.result", .written, PingResult(brokerTime: 5).json) { _ = try PingResult(json: $0) },
        WireType("event-cause", .checked, EventCause(eventID: 3, event: "call --answer").json) {
            _ = try EventCause(json: $0)
        },
        WireType(
            "callback.params", .checked,
            CallbackParams(callbackID: 1, callback: .didBecomeActive, state: .active, budgetMs: 1).json,
            enums: [
                "callback": cases(LifecycleCallback.self), "state": cases(LifecycleState.self),
                "sceneState": cases(SceneState.self), "posts": cases(ApplicationNotification.self),
                "kind": cases(BackgroundTaskKind.self), "launchReason": cases(LaunchReason.self),
            ],
            unprobed: ["restoration", "payload"]
        ) { _ = try CallbackParams(json: $0) },
        WireType(
            "callback.result", .checked, CallbackAnswer(handlerMs: 1, handlerFailed: true).json,
            enums: ["result": cases(BackgroundFetchResult.self), "presentation": presentationOptions],
            unprobed: ["restoration"]
        ) {
            _ = try CallbackAnswer(json: $0)
        },
        WireType("beginBackgroundTask.params", .checked, BackgroundTaskBeginParams(name: "upload").json) {
            _ = try BackgroundTaskBeginParams(json: $0)
        },
        WireType("beginBackgroundTask.result", .written, BackgroundTaskBeginResult(taskID: 4).json) {
            _ = try BackgroundTaskBeginResult(json: $0)
        },
        WireType("endBackgroundTask.params", .checked, BackgroundTaskEndParams(taskID: 4).json) {
            _ = try BackgroundTaskEndParams(json: $0)
        },
        WireType("backgroundTaskExpiring.params", .checked, BackgroundTaskExpiringParams(taskID: 4).json) {
            _ = try BackgroundTaskExpiringParams(json: $0)
        },
        WireType(
            "registerBackgroundTask.params", .checked, RegisterBackgroundTaskParams(identifier: "com.x.refresh").json
        ) { _ = try RegisterBackgroundTaskParams(json: $0) },
        WireType(
            "setTaskCompleted.params", .checked, SetTaskCompletedParams(identifier: "com.x.refresh", success: true).json
        ) { _ = try SetTaskCompletedParams(json: $0) },
        WireType("protectedData.result", .checked, ProtectedDataParams(available: false).json) {
            _ = try ProtectedDataParams(json: $0)
        },
        WireType("mark.params", .checked, MarkParams(name: "m", data: [:]).json) { _ = try MarkParams(json: $0) },
        WireType("reportMemory.params", .checked, ReportMemoryParams(bytes: 1).json) {
            _ = try ReportMemoryParams(json: $0)
        },
        WireType("empty.result", .written, EmptyResult.json),
        WireType(
            "fire.params", .checked, FireParams(event: .call, action: .answer).json,
            enums: [
                "event": cases(FireParams.FireEvent.self), "action": cases(FireParams.Action.self),
                "level": cases(MemoryWarningLevel.self),
            ],
            unprobed: ["scene", "session"]
        ) { _ = try FireParams(json: $0) },
        WireType("fire.result", .written, FireResult(eventID: 3, event: "call", completed: true).json) {
            _ = try FireResult(json: $0)
        },
        WireType("status.params", .checked, StatusParams(app: "com.x").json) { _ = try StatusParams(json: $0) },
        WireType(
            "status.result", .written,
            StatusResult(profile: .ios7, locked: false, call: .none, alert: nil, foreground: nil, apps: []).json,
            enums: [
                "call": cases(CallStatus.self), "alert": cases(AlertKind.self), "pressure": cases(MemoryPressure.self),
                "profile": cases(Profile.self),
            ]
        ) { _ = try StatusResult(json: $0) },
        WireType(
            "app-status", .written, AppStatus(id: "com.x", pid: nil, state: .active, sinceMs: 0, connected: true).json,
            enums: ["state": cases(LifecycleState.self)]
        ) { _ = try AppStatus(json: $0) },
        WireType(
            "wait.params", .checked, WaitParams(app: "com.x", state: .active, timeoutMs: 1).json,
            enums: ["state": cases(LifecycleState.self)]
        ) {
            // As the broker reads it: with `scene`, a scene's wait (`SceneWaitTests` checks its scene states).
            if SceneWaitParams.namesScene($0) {
                _ = try SceneWaitParams(json: $0)
            } else {
                _ = try WaitParams(json: $0)
            }
        },
        WireType(
            "wait.result", .written, WaitResult(app: "com.x", state: .active, sinceMs: 0).json,
            enums: ["state": cases(LifecycleState.self)]
        ) { _ = try WaitResult(json: $0) },
        WireType("history.params", .checked, HistoryParams(app: "com.x", limit: 1, beforeSeq: 2).json) {
            _ = try HistoryParams(json: $0)
        },
        WireType("history.result", .written, HistoryResult(entries: []).json) { _ = try HistoryResult(json: $0) },
        WireType(
            "transition.record", .written, minimalTransition.json,
            enums: [
                "callback": cases(LifecycleCallback.self), "from": cases(LifecycleState.self),
                "to": cases(LifecycleState.self), "outcome": cases(TransitionOutcome.self),
                "sceneFrom": cases(SceneState.self), "sceneTo": cases(SceneState.self),
            ]
        ) { _ = try TransitionRecord(json: $0) },
        WireType(
            "mark.record", .written,
            MarkRecord(seq: 1, app: "com.x", pid: nil, name: "m", data: nil, atMs: 0, wallMs: 0).json
        ) {
            _ = try MarkRecord(json: $0)
        },
        WireType(
            "run.record", .written,
            RunRecord(seq: 1, reason: .start, brokerVersion: "0.1.0", protocolVersion: 1, profile: .ios7,
                      timeScale: 1, pid: 42, startedWallMs: 0, atMs: 0, wallMs: 0).json,
            enums: ["reason": cases(RunRecord.Reason.self), "profile": cases(Profile.self),
                    "power": cases(PowerSource.self), "network": cases(NetworkState.self)]
        ) { _ = try RunRecord(json: $0) },
        WireType(
            "process.record", .written,
            ProcessRecord(seq: 1, app: "com.x", pid: nil, event: .connected, atMs: 0, wallMs: 0,
                          implements: [.didEnterBackground]).json,
            enums: [
                "event": cases(ProcessRecord.Event.self), "reason": cases(ProcessRecord.Reason.self),
                "implements": cases(LifecycleCallback.self),
            ]
        ) { _ = try ProcessRecord(json: $0) },
        WireType(
            "task.record", .written,
            BackgroundTaskRecord(
                seq: 1, app: "com.x", pid: nil, identifier: "com.x.refresh", kind: .appRefresh, event: .launched,
                success: nil, atMs: 0, wallMs: 0).json,
            enums: ["kind": cases(BackgroundTaskKind.self), "event": cases(BackgroundTaskRecord.Event.self)]
        ) { _ = try BackgroundTaskRecord(json: $0) },
        WireType(
            "push.record", .written,
            PushDeliveryRecord(
                seq: 1, app: "com.x", pid: nil, event: .delivered, result: nil, payload: "{}", atMs: 0, wallMs: 0).json,
            enums: [
                "event": cases(PushDeliveryRecord.Event.self), "result": cases(BackgroundFetchResult.self),
                "presentation": presentationOptions,
            ],
            unprobed: ["payload"]
        ) { _ = try PushDeliveryRecord(json: $0) },
        WireType(
            "protectedData.record", .written, ProtectedDataRecord(seq: 1, available: false, atMs: 0, wallMs: 0).json
        ) { _ = try ProtectedDataRecord(json: $0) },
        WireType(
            "submitBackgroundTask.params", .checked,
            SubmitBackgroundTaskParams(identifier: "com.x.refresh", kind: .appRefresh).json,
            enums: ["kind": cases(BackgroundTaskKind.self)]
        ) { _ = try SubmitBackgroundTaskParams(json: $0) },
        WireType(
            "launch-context", .written, LaunchContext(reason: .user).json(),
            enums: ["reason": cases(LaunchContext.Reason.self)]
        ) { _ = try LaunchContext(json: $0) },
        WireType("saveRestorationState.params", .checked, SaveRestorationStateParams(state: "card=3").json) {
            _ = try SaveRestorationStateParams(json: $0)
        },
        WireType("advance.params", .checked, AdvanceParams(byMs: 5).json) { _ = try AdvanceParams(json: $0) },
        WireType(
            "advance.result", .written,
            ClockResult(clock: .manual, nowMs: 5, outstanding: [
                OutstandingCallback(app: "com.x", callback: .willResignActive, callbackID: 3),
            ]).json
        ) { _ = try ClockResult(json: $0) },
        WireType(
            "clock.result", .written, ClockResult(clock: .real, nowMs: 5).json, enums: ["clock": cases(ClockKind.self)]
        ) { _ = try ClockResult(json: $0) },
    ]

    static let minimalTransition = TransitionRecord(
        seq: 1, app: "com.x", pid: nil, callback: nil, cause: nil, from: .active, to: .inactive, firedMs: nil,
        sentMs: 0, answeredMs: nil, handlerMs: nil, budgetMs: 0, outcome: .ok, wallMs: 0)

    struct Schema {
        let properties: JSONObject
        let required: Set<String>

        init(_ name: String) throws {
            let url = Fixtures.schemas.appendingPathComponent("\(name).schema.json")
            let json = try JSONParser.parse(try Fixtures.bytes(url))
            properties = try #require(json["properties"]?.objectValue, "\(name) has no properties")
            required = Set((json["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        }

        var declared: Set<String> { Set(properties.keys) }

        /// The string values a member definition allows: its `enum`, or that of its array items, or of an `anyOf`.
        static func enumValues(_ definition: JSONValue) -> [String]? {
            if let values = definition["enum"]?.arrayValue ?? definition["items"]?["enum"]?.arrayValue {
                return values.compactMap(\.stringValue)
            }
            return definition["anyOf"]?.arrayValue?.lazy.compactMap(enumValues).first
        }

        /// Whether the member is a number (`integer` or `number`, perhaps or `null`), and whether it is an integer.
        static func numberKind(_ definition: JSONValue) -> (isNumber: Bool, isInteger: Bool) {
            let types = definition["type"]?.arrayValue?.compactMap(\.stringValue)
                ?? definition["type"]?.stringValue.map { [$0] } ?? []
            return (types.contains("integer") || types.contains("number"), types.contains("integer"))
        }
    }

    @Test(arguments: types)
    func theTypeWritesEveryRequiredMemberAndNothingUndeclared(type: WireType) throws {
        let schema = try Schema(type.schema)
        let written = Set(try #require(type.sample.objectValue).keys)
        #expect(schema.required.isSubset(of: written), "lacks \(schema.required.subtracting(written))")
        #expect(written.isSubset(of: schema.declared), "writes undeclared \(written.subtracting(schema.declared))")
    }

    @Test(arguments: types.filter { $0.direction == .written })
    func theMembersAWrittenTypeAlwaysWritesAreTheRequiredOnes(type: WireType) throws {
        let schema = try Schema(type.schema)
        let written = Set(try #require(type.sample.objectValue).keys)
        // A member this broker always writes that an older one did not is optional with a `default` (what readers
        // take when it is missing); every other member always written is required.
        let defaulted = Set(schema.properties.filter { $0.value["default"] != nil }.map(\.key))
        #expect(written.subtracting(defaulted) == schema.required,
                "always writes \(written.sorted()), requires \(schema.required.sorted())")
    }

    @Test(arguments: types.filter { $0.direction == .checked })
    func theMembersACheckedTypeReadsAndRequiresAreTheSchemas(type: WireType) throws {
        let schema = try Schema(type.schema)
        let probe = Probe(type)
        try #require(probe.rejection(of: type.sample) == nil, "the sample does not decode")
        let declared = schema.declared.subtracting(type.unprobed)
        let candidates = declared.union(type.sample.objectValue?.keys ?? []).union(["notAMember"])
            .subtracting(type.unprobed)
        let read = Set(candidates.filter { probe.isRead($0) })
        #expect(read == declared, "reads \(read.sorted()), the schema declares \(declared.sorted())")
        let required = Set(type.sample.objectValue?.keys.filter { probe.isRequired($0) } ?? [])
        #expect(required == schema.required, "requires \(required.sorted()), the schema \(schema.required.sorted())")
    }

    @Test(arguments: types)
    func enumValuesAreTheSwiftCasesAndTheReaderAcceptsNoOther(type: WireType) throws {
        let schema = try Schema(type.schema)
        let probe = Probe(type)
        for (member, definition) in schema.properties {
            guard let values = Schema.enumValues(definition) else { continue }
            let swiftCases = try #require(type.enums[member], "\(member) has an enum in the schema but none in Swift")
            #expect(Set(swiftCases) == Set(values), "\(member): Swift \(swiftCases), schema \(values)")
            guard type.decode != nil else { continue }
            let accepted = (values + swiftCases + ["noSuchValue"]).filter {
                probe.rejectedField(probe.sample(member, .string($0))) != member
            }
            #expect(Set(accepted).isSubset(of: Set(values)), "\(member) accepts \(accepted), the schema \(values)")
        }
        for member in type.enums.keys {
            #expect(schema.properties[member].flatMap(Schema.enumValues) != nil, "\(member): no enum in the schema")
        }
    }

    @Test(arguments: types.filter { $0.direction == .checked })
    func theReaderEnforcesEveryMinimumOfTheSchemaAndNoOther(type: WireType) throws {
        let schema = try Schema(type.schema)
        let probe = Probe(type)
        for (member, definition) in schema.properties where !type.unprobed.contains(member) {
            let (isNumber, isInteger) = Schema.numberKind(definition)
            guard isNumber else { continue }
            if let exclusive = definition["exclusiveMinimum"]?.doubleValue {
                #expect(probe.rejectedField(probe.sample(member, .double(exclusive))) == member, "\(member) takes it")
                #expect(probe.rejectedField(probe.sample(member, .double(exclusive + 0.001))) != member)
                continue
            }
            guard let minimum = definition["minimum"]?.doubleValue else {
                let low: JSONValue = isInteger ? .integer(Int64.min) : .double(-1e300)
                #expect(probe.rejectedField(probe.sample(member, low)) != member, "\(member): a minimum in Swift only")
                continue
            }
            let atMinimum: JSONValue = isInteger ? .integer(Int64(minimum)) : .double(minimum)
            let below: JSONValue = isInteger ? .integer(Int64(minimum) - 1) : .double(minimum - 0.001)
            #expect(probe.rejectedField(probe.sample(member, atMinimum)) != member, "\(member) refuses its minimum")
            #expect(probe.rejectedField(probe.sample(member, below)) == member, "\(member) accepts below \(minimum)")
        }
    }

    /// Varies the sample of one wire type and reads what its `init(json:)` makes of it.
    struct Probe {
        let type: WireType

        init(_ type: WireType) { self.type = type }

        func sample(_ member: String, _ value: JSONValue?) -> JSONValue {
            Wire.with(type.sample, member, value)
        }

        /// The field a -32602 names, `"?"` for any other failure, `nil` when it decodes.
        func rejection(of json: JSONValue) -> String? {
            guard let decode = type.decode else { return nil }
            do {
                try decode(json)
                return nil
            } catch {
                return (error as? RPCError)?.data?["field"]?.stringValue ?? "?"
            }
        }

        /// The top-level member a rejection names (`app` for `app.id`, `entries` for `entries[0]`).
        func rejectedField(_ json: JSONValue) -> String? {
            rejection(of: json).map { field in
                String(field.prefix { $0 != "." && $0 != "[" })
            }
        }

        /// Whether the reader looks at `member`: a value no member takes (an array of an empty array) is refused.
        func isRead(_ member: String) -> Bool {
            rejectedField(sample(member, .array([.array([])]))) == member
        }

        /// Whether the reader refuses the sample without `member`.
        func isRequired(_ member: String) -> Bool {
            rejection(of: sample(member, nil)) != nil
        }
    }
}
