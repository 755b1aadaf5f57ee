import LifebusIO

/// Removing a private broker's temporary folder once the broker has gone: what it leaves there (socket, lock file,
/// token, journal and its rotations), its `logs` folder of installed apps' logs (§16.4) and the `state` folder its
/// apps saved their state in (`BrokerLaunch.freshAppState`), whatever the apps made there. Stateless.
enum BrokerFolder {
    /// The apps' state folder's name (`BrokerLaunch.freshAppState`).
    static let appState = "state"

    static func remove(_ folder: String) {
        FolderEntries.removeTree(folder)
    }
}
