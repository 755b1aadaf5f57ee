// The resident-memory floor of a static Swift program on this machine: it prints the line scripts/bench waits for,
// then waits for a signal. Built with `swiftc -O -static-stdlib`, as lifebusd is shipped.
import Glibc

print("listening")
fflush(nil)
while true {
    pause()
}
