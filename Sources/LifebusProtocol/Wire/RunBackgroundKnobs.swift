public import LifebusJSON
public import LifebusLifecycle

/// A run record's `background` member (`Protocol/README.md` §13), written only under a profile with data protection
/// and `BGTaskScheduler` (`ios13` and later): the background-execution and data-protection choices Apple does not
/// document, as the broker ran with them (the profile's, or `lifebusd`'s flags), so a journal says how to replay
/// its run (`Protocol/lifecycle.md`'s knob table).
///
/// A plain value. Wire form: `{"queuesProtectedDataNotifications":true,"taskKindsAfterForceQuit":["processing"],
/// "connectsSceneAtBackgroundLaunch":false}` — whether a suspended app hears the net change of protected data when it
/// runs again (B48–B51; `lifebusd --protected-data-notifications queued|missed`), the task kinds whose due task still
/// launches an app the user force-quit (B64–B66; `lifebusd --tasks-after-force-quit KIND,…|none`), in
/// `BackgroundTaskKind`'s order, and whether a scene app launched into the background connects a scene (S47–S52;
/// `lifebusd --background-launch-scene none|connects`). All three are required: the record has had them since it
/// has had `background`.
public struct RunBackgroundKnobs: Sendable, Equatable {
    public var queuesProtectedDataNotifications: Bool
    public var taskKindsAfterForceQuit: Set<BackgroundTaskKind>
    public var connectsSceneAtBackgroundLaunch: Bool

    /// The knobs a broker under `profile` runs with; `nil` under a profile without data protection (`ios3`, `ios4`,
    /// `ios7`), whose run records are what they were before.
    public init?(
        profile: Profile, queuesProtectedDataNotifications: Bool, taskKindsAfterForceQuit: Set<BackgroundTaskKind>,
        connectsSceneAtBackgroundLaunch: Bool = false
    ) {
        guard profile.protectedDataLockDelay != nil else { return nil }
        self.queuesProtectedDataNotifications = queuesProtectedDataNotifications
        self.taskKindsAfterForceQuit = taskKindsAfterForceQuit
        self.connectsSceneAtBackgroundLaunch = connectsSceneAtBackgroundLaunch
    }

    init(reader: ParamsReader) throws(RPCError) {
        queuesProtectedDataNotifications = try reader.bool("queuesProtectedDataNotifications")
        _ = try reader.required("taskKindsAfterForceQuit")  // present, even when empty (`none`)
        var kinds: Set<BackgroundTaskKind> = []
        for word in try reader.stringArray("taskKindsAfterForceQuit") {
            guard let kind = BackgroundTaskKind(rawValue: word) else {
                let choices = BackgroundTaskKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw RPCError.invalidParams(
                    field: reader.path("taskKindsAfterForceQuit"), "must list kinds from \(choices)")
            }
            kinds.insert(kind)
        }
        taskKindsAfterForceQuit = kinds
        connectsSceneAtBackgroundLaunch = try reader.bool("connectsSceneAtBackgroundLaunch")
    }

    public var json: JSONValue {
        let kinds = BackgroundTaskKind.allCases.filter(taskKindsAfterForceQuit.contains)
        return [
            "queuesProtectedDataNotifications": .bool(queuesProtectedDataNotifications),
            "taskKindsAfterForceQuit": .array(kinds.map { .string($0.rawValue) }),
            "connectsSceneAtBackgroundLaunch": .bool(connectsSceneAtBackgroundLaunch),
        ]
    }
}
