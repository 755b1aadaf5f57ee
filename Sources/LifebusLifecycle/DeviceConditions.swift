/// What the device runs on and whether it reaches the network: the conditions a `BGProcessingTaskRequest` asks for
/// (`requiresExternalPower`, `requiresNetworkConnectivity`). Changed by `fire power` and `fire network`; its start
/// is `lifebusd --power … --network …` (default `external` and `online`: a development device on its cable). A
/// plain value.
public struct DeviceConditions: Sendable, Hashable {
    public var power: PowerSource
    public var network: NetworkState

    public init(power: PowerSource = .external, network: NetworkState = .online) {
        self.power = power
        self.network = network
    }
}

/// Where the device takes its power from. The raw value is the wire spelling (`fire power`'s action, `lifebusd
/// --power`).
public enum PowerSource: String, Sendable, Hashable, CaseIterable {
    /// Plugged in (`requiresExternalPower` is met).
    case external
    /// On its battery.
    case battery
}

/// Whether the device reaches the network. The raw value is the wire spelling (`fire network`'s action, `lifebusd
/// --network`).
public enum NetworkState: String, Sendable, Hashable, CaseIterable {
    /// Connected (`requiresNetworkConnectivity` is met).
    case online
    case offline
}

/// What a due `processing` task waits for before it runs (`status`' `waitingFor`). The raw value is the wire
/// spelling.
public enum ProcessingRequirement: String, Sendable, Hashable, CaseIterable {
    /// The device is idle: locked (`sleep`) — `[inference]`, Apple says "idle" without defining it.
    case idle
    /// `requiresExternalPower`, while the device is on its battery.
    case externalPower
    /// `requiresNetworkConnectivity`, while the device is offline.
    case networkConnectivity
}
