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

# Installs strace when it is missing (the --journal-sync test watches the broker's fdatasync and writes with it).
lifebus_ensure_strace() {
    command -v strace >/dev/null 2>&1 && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq strace >/dev/null
}
