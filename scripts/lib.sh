# Shared by the scripts: install what a fresh Debian machine with the Swift toolchain lacks.
# Sourced, not run.

lifebus_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Installs libuv's development files (and pkg-config) when they are missing.
lifebus_ensure_libuv() {
    if pkg-config --exists libuv 2>/dev/null; then
        return 0
    fi
    echo "lifebus: installing libuv1-dev and pkg-config" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libuv1-dev pkg-config >/dev/null
    pkg-config --exists libuv || { echo "lifebus: libuv1-dev did not install" >&2; return 1; }
}

# Installs a C compiler when there is none (the benchmark baseline is C).
lifebus_ensure_cc() {
    command -v cc >/dev/null 2>&1 && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gcc >/dev/null
}

# Installs what the example scripts' tests run besides bash: python3 (06's note-taking app). `setpriv` (for
# subscribe's PR_SET_PDEATHSIG backup) comes with util-linux, which every Debian system has.
lifebus_ensure_example_tools() {
    command -v python3 >/dev/null 2>&1 && return 0
    echo "lifebus: installing python3 (the example scripts run a Python app)" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 >/dev/null
}
