import CLibUV

/// What a `UVHandle` tells its owner from the close callback, on the loop's thread, while still holding it.
protocol UVHandleOwner: AnyObject {
    /// The handle is closed: drop what libuv's callbacks needed (handlers), breaking any cycle through them.
    func handleDidClose()

    /// libuv's close callback for this owner's handles: `{ uvHandleClosed($0, as: Self.self) }`, written in each
    /// owner so that the callback knows the owner's type statically. (A cast `as? any UVHandleOwner` in one shared
    /// callback scans every protocol conformance of the binary at the first close of each type: about 160 k
    /// instructions each, a quarter of a one-shot CLI command.)
    static var closeCallback: uv_close_cb { get }
}

/// One libuv handle of one owner object: the ownership rule of `ARCHITECTURE.md`, written once for `LoopTimer`,
/// `SignalWatcher`, `Listener`, `Connection` and `NextTurnQueue`.
///
/// Owns the `uv_*_t` memory. A handle whose `uv_*_init` fails is freed at once (its close callback never comes).
/// From `adopt(_:)` until the close callback, `data` holds a retain of the owner, so libuv's callbacks always find
/// it alive even when nobody else holds it; the close callback is the only release (after the owner's
/// `handleDidClose()`), and it frees the memory after reading `data`. Bound to its loop's thread. Invariant: closed
/// before it goes (`deinit` asserts it; an adopted owner cannot go before its handle's close callback anyway).
final class UVHandle<Handle> {
    let pointer: UnsafeMutablePointer<Handle>
    private(set) var isClosing = false
    /// The owner's `closeCallback` once adopted; until then the handle has no owner to tell.
    private var closeCallback: uv_close_cb = uvUnadoptedHandleClosed

    /// Allocates a zeroed `Concrete` (a `uv_pipe_t` seen as its `uv_stream_t` prefix, say) and initialises it with
    /// `initialize`, the `uv_*_init` named `function`; throws its error after freeing the memory.
    init<Concrete>(
        _ concrete: Concrete.Type, _ function: String, _ initialize: (UnsafeMutablePointer<Concrete>) -> Int32
    ) throws(UVError) {
        let memory = uvAllocate(concrete)
        let status = initialize(memory)
        guard status == 0 else {
            uvFree(memory)
            throw UVError(code: status, function: function)
        }
        pointer = uvCast(memory)
    }

    /// Allocates and initialises a `Handle` itself.
    convenience init(_ function: String, _ initialize: (UnsafeMutablePointer<Handle>) -> Int32) throws(UVError) {
        try self.init(Handle.self, function, initialize)
    }

    deinit {
        assert(isClosing, "a libuv handle's owner was released without close()")
    }

    var base: UnsafeMutablePointer<uv_handle_t> { uvCast(pointer) }

    /// From now until the close callback, the handle retains `owner`.
    func adopt<Owner: UVHandleOwner>(_ owner: Owner) {
        base.pointee.data = Unmanaged.passRetained(owner).toOpaque()
        closeCallback = Owner.closeCallback
    }

    /// Starts closing (`uv_close`); the owner hears `handleDidClose()` from the close callback. Idempotent.
    func close() {
        guard !isClosing else { return }
        isClosing = true
        uv_close(base, closeCallback)
    }

    /// Whether the handle, while active, keeps `EventLoop.run()` from returning (libuv's ref; default true).
    var keepsLoopAlive: Bool {
        get { !isClosing && uv_has_ref(base) != 0 }
        set {
            guard !isClosing else { return }
            if newValue { uv_ref(base) } else { uv_unref(base) }
        }
    }
}

/// The owner of a handle, inside one of its libuv callbacks: unretained, since the handle holds it until its close
/// callback.
func uvOwner<Owner: AnyObject, Handle>(of handle: UnsafeMutablePointer<Handle>, as _: Owner.Type) -> Owner {
    let base: UnsafeMutablePointer<uv_handle_t> = uvCast(handle)
    return Unmanaged<Owner>.fromOpaque(base.pointee.data!).takeUnretainedValue()
}

/// The close callback of an adopted handle whose owner is an `Owner`: the one release of the owner (balancing
/// `passRetained` in `adopt`), the handle's memory freed after reading `data`, then the owner told.
func uvHandleClosed<Owner: UVHandleOwner>(_ handle: UnsafeMutablePointer<uv_handle_t>?, as _: Owner.Type) {
    guard let handle else { return }
    guard let data = handle.pointee.data else { return uvUnadoptedHandleClosed(handle) }
    let owner = Unmanaged<Owner>.fromOpaque(data).takeRetainedValue()
    uvFree(handle)
    owner.handleDidClose()
}

/// The close callback of a handle never adopted: only its memory to free.
private func uvUnadoptedHandleClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle else { return }
    uvFree(handle)
}
