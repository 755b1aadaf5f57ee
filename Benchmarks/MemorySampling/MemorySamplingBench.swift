// The memory sampler's cost and accuracy on one app of many processes, beside the method it replaced.
//
//   MemorySamplingBench PROCESSES SECONDS [PERIOD_MS]
//
// Starts PROCESSES sleeping processes in one process group (a shell leading them), takes one round of each method
// (untimed: the meter reads every process once when it first sees them), then samples the group every PERIOD_MS
// (default 250, the broker's) for SECONDS with each method in turn on this thread, and prints one line:
//
//   METER_CPU_PERCENT STATM_CPU_PERCENT METER_RATIO STATM_RATIO PROCESSES WORST_CPU_PERCENT
//
// The worst case is a meter that reads every visited process's PSS (as when every process's memory moves each
// period): the meter's cost bound, whatever the processes do.
// CPU percent: this process's CPU time (user + system, `CLOCK_PROCESS_CPUTIME_ID`) ÷ wall time over the window, of
// one core. Ratio: the method's last figure ÷ the group's PSS sum read here on its own from every `smaps_rollup`.
// The statm method is the one the broker used before: a pass over every `/proc/*/stat` per period, then each
// member's `statm` resident pages.
import Glibc
import LifebusContainment
import LifebusSupervision

@main
enum MemorySamplingBench {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let processes = Int(arguments[1]), processes > 0,
              let seconds = Int(arguments[2]), seconds > 0
        else { fail("usage: MemorySamplingBench PROCESSES SECONDS [PERIOD_MS]") }
        let period = (arguments.count > 3 ? Int(arguments[3]) ?? 250 : 250) * 1_000_000
        let leader = startGroup(processes)
        defer { stopGroup(leader) }
        let deadline = monotonic(CLOCK_MONOTONIC) + 120 * 1_000_000_000
        while ProcStat.members(ofGroup: leader).count < processes + 1 {
            guard monotonic(CLOCK_MONOTONIC) < deadline else {
                stopGroup(leader)
                fail("the \(processes) processes did not start")
            }
            usleep(100_000)
        }

        let target = MemoryReading.Target(appID: "bench", scope: .processGroup(leader))
        let meter = MemoryMeter()
        var meterFigure = meter.measure([target])[0]
        var statmFigure = statmSum(ofGroup: leader)
        let meterCPU = cpuShare(seconds: seconds, period: period) { meterFigure = meter.measure([target])[0] }
        let statmCPU = cpuShare(seconds: seconds, period: period) { statmFigure = statmSum(ofGroup: leader) }
        let worst = MemoryMeter(figureEvery: 1)
        _ = worst.measure([target])
        let worstCPU = cpuShare(seconds: seconds, period: period) { _ = worst.measure([target]) }
        let truth = Double(pssSum(ofGroup: leader))
        print(fixed(meterCPU, 2), fixed(statmCPU, 2), fixed(Double(meterFigure.residentBytes) / truth, 3),
              fixed(Double(statmFigure) / truth, 2), meterFigure.processes, fixed(worstCPU, 2))
    }

    static func fail(_ message: String) -> Never {
        let line = "MemorySamplingBench: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(1)
    }

    /// `value` with `digits` decimals.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let fraction = String(abs(scaled) % scale)
        return "\(scaled / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }

    /// Starts `sh` leading a process group of its own, which starts `count` sleeping processes and waits.
    static func startGroup(_ count: Int) -> pid_t {
        let script = "i=0; while [ $i -lt \(count) ]; do sleep 100000 & i=$((i+1)); done; wait"
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let words: [String] = ["/bin/sh", "-c", script]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ)
        guard result == 0 else { fail("posix_spawn /bin/sh: \(String(cString: strerror(result)))") }
        return pid
    }

    /// Kills the whole group and reaps its leader.
    static func stopGroup(_ leader: pid_t) {
        kill(-leader, SIGKILL)
        var status: Int32 = 0
        waitpid(leader, &status, 0)
    }

    static func monotonic(_ clock: clockid_t) -> Int {
        var time = timespec()
        clock_gettime(clock, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// The old method: every process's `stat`, then the `statm` resident bytes of each member of `group`.
    static func statmSum(ofGroup group: Int32) -> Int {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        return ProcStat.members(ofGroup: group).reduce(0) { sum, member in
            guard let text = try? SystemFiles.read("/proc/\(member.pid)/statm", limit: 1024) else { return sum }
            let fields = text.split(separator: UInt8(ascii: " "))
            return sum + (fields.count > 1 ? Int(String(decoding: fields[1], as: UTF8.self)) ?? 0 : 0) * pageSize
        }
    }

    /// The group's PSS sum, read here on its own.
    static func pssSum(ofGroup group: Int32) -> Int {
        ProcStat.members(ofGroup: group).reduce(0) { sum, member in
            guard let text = try? SystemFiles.read("/proc/\(member.pid)/smaps_rollup", limit: 4096) else {
                return sum
            }
            let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Pss:") }
            return sum + (Int(line?.split(separator: " ").dropFirst().first ?? "") ?? 0) << 10
        }
    }

    /// Calls `round` every `period` nanoseconds for `seconds`; the CPU share of one core it took, in percent.
    static func cpuShare(seconds: Int, period: Int, _ round: () -> Void) -> Double {
        let wallStart = monotonic(CLOCK_MONOTONIC)
        let cpuStart = monotonic(CLOCK_PROCESS_CPUTIME_ID)
        var next = wallStart
        while next - wallStart < seconds * 1_000_000_000 {
            round()
            next += period
            var until = timespec(tv_sec: next / 1_000_000_000, tv_nsec: next % 1_000_000_000)
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nil) == EINTR {}
        }
        let cpu = monotonic(CLOCK_PROCESS_CPUTIME_ID) - cpuStart
        return 100 * Double(cpu) / Double(monotonic(CLOCK_MONOTONIC) - wallStart)
    }
}
