import LifebusCore

/// Memory sampling on the manual clock (part of `MachineClock`): the samples fall on virtual time, at the instants
/// `epoch + k × period`, and an `advance` takes them as it steps (each a request the driver takes with
/// `BrokerMachine.takeMemorySampleRequest` after the input, and whose round the advance waits for; the round is
/// judged at that virtual instant, so a memory-limit kill or a pressure warning happens at a known instant).
///
/// An advance does not read the same memory over and over: it samples at the first sample instant at or after its
/// start and after each step where something happened (deadlines fired, or a round that killed or changed the
/// pressure level); sample instants with nothing happening since the last round are skipped, since their reading
/// would be that round's again (real memory does not move with virtual time). So an advance of an hour on a 250 ms
/// period takes a handful of samples, not 14 400. Deadlines and a sample at one instant: the deadlines first.
///
/// A value: the sample instants and whether one is due. Invariants: `nextInstant` is on the grid and after the last
/// sample taken; `awaiting` is set from a sample's request until its round comes; `requested` once the driver took
/// the request.
struct VirtualSampling {
    let period: Duration
    let epoch: Instant
    /// The first grid instant after the last sample.
    private var next: Instant
    /// Something happened since the last sample: the next grid instant is worth a reading.
    private var armed = false
    /// A sample was asked for and its round has not come yet.
    private(set) var awaiting = false
    /// The driver took the request of the awaited sample.
    private var requested = false

    init(period: Duration, epoch: Instant) {
        self.period = period
        self.epoch = epoch
        next = epoch + period
    }

    /// The instant of the next sample to take, `nil` when none is worth taking.
    var nextInstant: Instant? { armed && !awaiting ? next : nil }

    /// Something happened at `instant`: sample again at the first grid instant at or after it.
    mutating func arm(at instant: Instant) {
        armed = true
        guard next < instant else { return }
        let step = period.clampedNanoseconds
        let periods = (instant.nanoseconds - next.nanoseconds + step - 1) / max(step, 1)
        next = Instant(nanoseconds: next.nanoseconds + periods * step)
    }

    /// A sample is asked for at `instant` (the grid instant the clock stepped onto).
    mutating func take(at instant: Instant) {
        awaiting = true
        requested = false
        armed = false
        next = instant + period
    }

    /// Whether a sample is awaited that the driver was not asked for yet; `true` once per sample.
    mutating func takeRequest() -> Bool {
        guard awaiting, !requested else { return false }
        requested = true
        return true
    }

    /// Its round came; `changedSomething` (a kill, a new pressure level) makes the next instant worth a reading.
    mutating func roundCame(changedSomething: Bool) {
        awaiting = false
        armed = changedSomething
    }
}
