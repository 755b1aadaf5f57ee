/// Data protection: whether the device's protected files can be used now (`UIApplication.isProtectedDataAvailable`).
/// The broker says when it changes (`protectedDataChanged`, `Protocol/README.md` §10.2): about 10 s after `fire
/// sleep` under the profiles with data protection it becomes unavailable, and `fire wake` makes it available again
/// before `protectedDataDidBecomeAvailable` is delivered.
extension Application {
    /// `false` while the device is locked and its protected data discarded: `ProtectedFile`s of class `.complete`
    /// (and `.completeUnlessOpen` not already open) then fail with `EPERM`.
    public var isProtectedDataAvailable: Bool { protectedData.isAvailable }

    /// An in-process host (the test kit's in-memory bus) says protected data changed, as `protectedDataChanged`
    /// does on a broker connection.
    @_spi(Hosting) public func hostProtectedDataChanged(available: Bool) {
        protectedData.set(available: available)
    }
}
