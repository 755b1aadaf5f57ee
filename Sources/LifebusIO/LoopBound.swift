/// Carries a loop-bound (non-`Sendable`) value through `LoopExecutor.execute` closures.
///
/// Owns `value`; the value may be read or changed only on `loop`'s thread, which `value` checks in every build
/// (as swift-nio's `NIOLoopBound`).
/// This is what makes the `@unchecked Sendable` honest: the box may travel between threads, its content is only
/// touched on the loop.
public struct LoopBound<Value>: @unchecked Sendable {  // unchecked: access is confined to the loop thread
    private var storage: Value
    private let loop: EventLoop

    public init(_ value: Value, loop: EventLoop) {
        loop.preconditionInLoop()
        self.storage = value
        self.loop = loop
    }

    public var value: Value {
        get {
            loop.preconditionInLoop()
            return storage
        }
        set {
            loop.preconditionInLoop()
            storage = newValue
        }
    }
}
