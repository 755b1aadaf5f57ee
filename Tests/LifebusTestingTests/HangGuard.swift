import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a test that drives apps over the bus: a guard against a hang, not a measure of speed. Ten
    /// minutes, because an async test's time counts while it waits for a thread: on a 2-core machine the whole
    /// suite's synchronous end-to-end row tests hold the cooperative pool for up to ~400 s (a 1-minute limit failed
    /// 23 kit tests in a clean CI run that way, none of them hung).
    static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
