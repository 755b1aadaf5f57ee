import Synchronization

/// Whether the device's protected data can be read now, as the broker last said (`protectedDataChanged`, hello's
/// `protectedDataAvailable`, the `protectedDataDidBecomeAvailable` callback): the one answer behind
/// `Application.isProtectedDataAvailable` and every `ProtectedFile` of that application.
///
/// Owns one flag behind a `Mutex`, so a `ProtectedFile` may ask from any thread. Invariant: `true` until the broker
/// says otherwise (a Lifebus device starts unlocked, so it has always been unlocked once since "boot").
final class ProtectedDataGate: Sendable {
    private let available = Mutex(true)

    /// Whether protected data is available now.
    var isAvailable: Bool { available.withLock { $0 } }

    /// Records what the broker said.
    func set(available now: Bool) {
        available.withLock { $0 = now }
    }

    /// Whether a file of `protection` may be read or written now; `openedWhileAvailable` is whether the descriptor
    /// being used was opened while the data was available (what `.completeUnlessOpen` keeps usable).
    func permits(_ protection: ProtectedFile.Protection, openedWhileAvailable: Bool) -> Bool {
        switch protection {
        case .complete: isAvailable
        case .completeUnlessOpen: openedWhileAvailable || isAvailable
        case .untilFirstUserAuthentication: true
        }
    }
}
