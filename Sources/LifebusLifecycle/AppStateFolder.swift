/// The folder an app keeps its state in between launches, as an iOS app keeps files in its container: named by the
/// environment variable `LIFEBUS_STATE_DIR` (the SDK's `StateFile` reads it; a private broker that gives its apps a
/// fresh one sets it: `BrokerLaunch.freshAppState`). Stateless.
public enum AppStateFolder {
    /// The environment variable naming the folder.
    public static let environmentVariable = "LIFEBUS_STATE_DIR"
}
