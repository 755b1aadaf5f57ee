import Glibc

/// How the suite runs, shared by its benchmark targets. Stateless: read from the environment.
public enum MicroRun {
    /// `LIFEBUS_BENCH_QUICK` set (`./scripts/bench --quick`, `./scripts/test --micro`): a few short iterations, a
    /// smoke run rather than a measurement.
    public static var quick: Bool { getenv("LIFEBUS_BENCH_QUICK") != nil }
}
