public import LifebusLifecycle
import LifebusProtocol

/// `processing=ID[:AFTER][:power][:network]`: the `BGProcessingTask` the apps register and submit while they launch
/// (before they answer `didFinishLaunching`, after the `task` fact's refresh task when both are given), to begin
/// AFTER later on the device's clock (`nil`: only when run), requiring external power (`power`) and the network
/// (`network`), and complete when it runs — as FeedReader `--cleans` does
/// (`processing=com.example.FeedReader.clean:1m:power:network`). With it the fuzzer draws `fire power …` and `fire
/// network …`, and checks that the task never runs while a requirement it declares is unmet (or the device is not
/// locked: idle, `[inference]`).
///
/// A plain value; `init?(_:)` reads what `text` writes (a well-formed identifier, then at most one duration, then the
/// requirements, each once, in that order).
public struct ProcessingTaskFact: Sendable, Equatable {
    public var identifier: String
    /// The request's `earliestBeginDate` from the submission; `nil`: only `fire bgtask` runs it.
    public var after: Duration?
    public var requiresExternalPower: Bool
    public var requiresNetworkConnectivity: Bool

    public init(
        identifier: String, after: Duration? = nil, requiresExternalPower: Bool = false,
        requiresNetworkConnectivity: Bool = false
    ) {
        self.identifier = identifier
        self.after = after
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
    }

    /// Reads the value after `processing=`; `nil` when it is not `ID[:AFTER][:power][:network]`.
    public init?(_ value: Substring) {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard RegisterBackgroundTaskParams.isValidIdentifier(parts[0]) else { return nil }
        var rest = parts.dropFirst()
        var after: Duration?
        if let first = rest.first, first != "power", first != "network" {
            guard let duration = DurationText.parse(first) else { return nil }
            after = duration
            rest = rest.dropFirst()
        }
        let power = rest.first == "power"
        if power { rest = rest.dropFirst() }
        let network = rest.first == "network"
        if network { rest = rest.dropFirst() }
        guard rest.isEmpty else { return nil }
        self.init(
            identifier: parts[0], after: after, requiresExternalPower: power, requiresNetworkConnectivity: network)
    }

    /// The value after `processing=`.
    public var text: String {
        identifier + (after.map { ":" + DurationText.format($0) } ?? "") + (requiresExternalPower ? ":power" : "")
            + (requiresNetworkConnectivity ? ":network" : "")
    }

    /// What keeps the task from running on a device `locked` or not, with `conditions` (`lifecycle.md`, "Device
    /// conditions"): empty when it may run.
    public func unmet(locked: Bool, conditions: DeviceConditions) -> [ProcessingRequirement] {
        var unmet: [ProcessingRequirement] = []
        if !locked { unmet.append(.idle) }
        if requiresExternalPower, conditions.power != .external { unmet.append(.externalPower) }
        if requiresNetworkConnectivity, conditions.network != .online { unmet.append(.networkConnectivity) }
        return unmet
    }
}
