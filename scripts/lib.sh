# Shared by the scripts: install what a fresh Debian machine with the Swift toolchain lacks.
# Sourced, not run.

lifebus_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Installs Debian packages quietly (through sudo when not root): lifebus_apt_install [apt-get flags] PACKAGE...
lifebus_apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# Installs libuv's development files (and pkg-config) when they are missing.
lifebus_ensure_libuv() {
    if pkg-config --exists libuv 2>/dev/null; then
        return 0
    fi
    echo "lifebus: installing libuv1-dev and pkg-config" >&2
    lifebus_apt_install libuv1-dev pkg-config
    pkg-config --exists libuv || { echo "lifebus: libuv1-dev did not install" >&2; return 1; }
}

# Installs a C compiler when there is none (the benchmark baseline is C).
lifebus_ensure_cc() {
    command -v cc >/dev/null 2>&1 && return 0
    lifebus_apt_install gcc
}

# Installs what the timeline and MCP tests drive: Debian's headless `chromium` (renders the SVG timeline to PNG),
# and PyPI's `mcp` (an MCP client nobody here wrote) and `pillow` (reads the PNG). Quiet; skipped when present.
lifebus_ensure_trace_tools() {
    if ! command -v chromium >/dev/null 2>&1; then
        echo "lifebus: installing chromium (headless SVG rendering for the timeline tests)" >&2
        lifebus_apt_install --no-install-recommends chromium 2>/dev/null
    fi
    if ! python3 -c 'import mcp, PIL' >/dev/null 2>&1; then
        echo "lifebus: installing the Python packages mcp and pillow (MCP client, PNG reader for the tests)" >&2
        if ! python3 -m pip --version >/dev/null 2>&1; then
            lifebus_apt_install python3-pip 2>/dev/null
        fi
        local pip=(python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore
                   --no-warn-script-location)
        # Debian's own python3 is "externally managed" (PEP 668): there the packages go in with
        # --break-system-packages (into ~/.local for a user, /usr/local for root), beside Debian's.
        "${pip[@]}" 'mcp==2.3.0' pillow >/dev/null 2>&1 \
            || "${pip[@]}" --break-system-packages 'mcp==2.3.0' pillow >/dev/null
    fi
    command -v chromium >/dev/null 2>&1 || { echo "lifebus: chromium did not install" >&2; return 1; }
    python3 -c 'import mcp, PIL' >/dev/null 2>&1 || { echo "lifebus: mcp or pillow did not install" >&2; return 1; }
}

# Installs what the example scripts' tests run besides bash: python3 (06's note-taking app). `setpriv` (for
# subscribe's PR_SET_PDEATHSIG backup) comes with util-linux, which every Debian system has.
lifebus_ensure_example_tools() {
    command -v python3 >/dev/null 2>&1 && return 0
    echo "lifebus: installing python3 (the example scripts run a Python app)" >&2
    lifebus_apt_install python3
}

# Installs what the scenario tests check `lifebus run`'s output with: PyPI's `xmlschema` (validates the JUnit XML
# against Jenkins' schema), `junitparser` (reads it back as CI does), `jsonschema` and `pyyaml` (validate scenario
# files against Protocol/schemas/scenario.schema.json). Quiet; skipped when present.
lifebus_ensure_scenario_tools() {
    python3 -c 'import xmlschema, junitparser, jsonschema, yaml' >/dev/null 2>&1 && return 0
    echo "lifebus: installing the Python packages xmlschema, junitparser, jsonschema, pyyaml (scenario tests)" >&2
    if ! python3 -m pip --version >/dev/null 2>&1; then
        lifebus_apt_install python3-pip 2>/dev/null
    fi
    local pip=(python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore
               --no-warn-script-location)
    "${pip[@]}" xmlschema junitparser jsonschema pyyaml >/dev/null 2>&1 \
        || "${pip[@]}" --break-system-packages xmlschema junitparser jsonschema pyyaml >/dev/null
    python3 -c 'import xmlschema, junitparser, jsonschema, yaml' >/dev/null 2>&1 \
        || { echo "lifebus: xmlschema, junitparser or jsonschema did not install" >&2; return 1; }
}

# Installs what the Python client's checks run (PythonClientTests): PyPI's `pytest` (the plugin's own tests use its
# `pytester`), `mypy` (--strict), `ruff`, and what `pip install --no-build-isolation ./clients/python` builds with:
# setuptools, and `wheel` where setuptools is older than 70.1 (which builds wheels itself). Quiet; skipped when present.
lifebus_ensure_python_client_tools() {
    local present='import pytest, mypy, ruff, setuptools
try:
    from setuptools.command import bdist_wheel
except ImportError:
    import wheel'
    python3 -c "$present" >/dev/null 2>&1 && return 0
    echo "lifebus: installing the Python packages pytest, mypy, ruff, setuptools, wheel (Python client checks)" >&2
    if ! python3 -m pip --version >/dev/null 2>&1; then
        lifebus_apt_install python3-pip 2>/dev/null
    fi
    local pip=(python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore
               --no-warn-script-location)
    "${pip[@]}" pytest mypy ruff setuptools wheel >/dev/null 2>&1 \
        || "${pip[@]}" --break-system-packages pytest mypy ruff setuptools wheel >/dev/null
    python3 -c "$present" >/dev/null 2>&1 \
        || { echo "lifebus: pytest, mypy, ruff, setuptools or wheel did not install" >&2; return 1; }
}

# Installs Debian's redis-server (and redis-cli) when missing: the README's "existing program" recipe installs it as
# it is, under manifest hooks (ExistingProgramRecipeTests runs that block as written).
lifebus_ensure_redis() {
    command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 && return 0
    echo "lifebus: installing redis-server (the README's existing-program recipe runs it)" >&2
    lifebus_apt_install --no-install-recommends redis-server
    command -v redis-server >/dev/null 2>&1 || { echo "lifebus: redis-server did not install" >&2; return 1; }
}

# Installs strace when it is missing (the --journal-sync test watches the broker's fdatasync and writes with it).
lifebus_ensure_strace() {
    command -v strace >/dev/null 2>&1 && return 0
    lifebus_apt_install strace
}

# Installs dbus-daemon and dbus-send (Debian's dbus): the one-shot CLI's baseline in ./scripts/bench.
lifebus_ensure_dbus() {
    command -v dbus-daemon >/dev/null 2>&1 && command -v dbus-send >/dev/null 2>&1 && return 0
    echo "lifebus: installing dbus (dbus-send is the benchmark's one-shot baseline)" >&2
    lifebus_apt_install --no-install-recommends dbus
}

# How the broker is linked (by lld: Package.swift), each for its resident memory (numbers: ./scripts/bench):
# - without PIE, like the CLI: no 680 KiB of relocations read at start-up, no metadata pages dirtied by applying them;
# - without exporting its symbols (the static runtime's link arguments export all of them; nothing looks one up in the
#   broker): ld.so no longer reads a 380 KiB dynamic symbol table each time it binds one of libc's;
# - with the unwinder from libgcc_eh.a, so libgcc_s.so (--as-needed) is not loaded;
# - with the functions a running broker runs (a session's, a fan-out's) placed first and those only start-up runs
#   after them, in scripts/lifebusd.order (made by scripts/order-symbols; a name it lists that no longer exists is
#   skipped silently; lld orders sections, so every module is compiled with one section per function:
#   lifebus_release_compile_flags): once it listens the daemon lets go of the pages it has not written
#   (LifebusDaemon's StartUpPages), and what comes back is the pages the running code lies in, with the up to 64 KiB
#   around each that the kernel's fault-around maps (MADV_RANDOM does not turn it off on 6.x kernels): the denser the
#   running code, the fewer.
# LIFEBUS_LINK_MAP=FILE also writes lld's map of the broker (scripts/order-symbols reads it).
lifebus_broker_link_flags=(
    -Xlinker -no-pie -Xlinker --no-export-dynamic -Xlinker -lgcc_eh
    -Xlinker --symbol-ordering-file="$lifebus_root/scripts/lifebusd.order" -Xlinker --no-warn-symbol-ordering
)

# How every release build compiles: one section per function, Swift and C, so the linker can place each function
# where scripts/lifebusd.order says (without them a whole file's code moves as one section).
lifebus_release_compile_flags=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections)

# lifebus_release_scratch SCRATCH: SwiftPM does not notice compile flags that changed (what it built stays as it was
# compiled), so a scratch folder whose release objects were compiled with other flags than
# lifebus_release_compile_flags loses them (the dependencies' checkouts stay) and builds them again.
lifebus_release_scratch() {
    local scratch=$1 stamp="$1/release-compile-flags"
    if [ -d "$scratch" ] && [ "$(cat "$stamp" 2>/dev/null)" != "${lifebus_release_compile_flags[*]}" ]; then
        rm -rf "$scratch/$(uname -m)-unknown-linux-gnu/release" "$scratch/release"
    fi
    mkdir -p "$scratch"
    echo "${lifebus_release_compile_flags[*]}" >"$stamp"
}

# Builds release products as users run them and as ./scripts/bench measures them: the Swift runtime linked statically
# and, when the C++ toolchain has its static archive, libstdc++ too (as a shared library it costs every start-up
# ~1,600 symbol look-ups, and the daemon ~1 MiB of resident pages). GNU ld searches every -L folder before its own,
# so a folder holding only libstdc++.a makes the runtime's -lstdc++ static. Prints the products' folder.
# lifebus_build_release SCRATCH PRODUCT...
lifebus_build_release() {
    local scratch=$1; shift
    local archive flags=()
    lifebus_release_scratch "$scratch"
    archive=$(c++ -print-file-name=libstdc++.a 2>/dev/null || true)
    if [ -f "$archive" ]; then
        mkdir -p "$scratch/static-libstdc++"
        ln -sf "$archive" "$scratch/static-libstdc++/libstdc++.a"
        flags=(-Xlinker -L"$(cd "$scratch/static-libstdc++" && pwd)")
    else
        echo "lifebus: no static libstdc++ (libstdc++-dev); linking it as a shared library" >&2
    fi
    local product extra
    for product in "$@"; do
        # The one-shot CLI is linked without PIE: its start-up applies no relocations (40 k of them). Only here, with
        # the runtime static: against a shared libswiftCore, a position-dependent executable makes ld.so warn.
        extra=()
        if [ "$product" = lifebus ]; then extra=(-Xlinker -no-pie); fi
        if [ "$product" = lifebusd ]; then extra=("${lifebus_broker_link_flags[@]}"); fi
        if [ "$product" = lifebusd ] && [ -n "${LIFEBUS_LINK_MAP:-}" ]; then
            extra+=(-Xlinker -Map="$LIFEBUS_LINK_MAP" -Xlinker --no-demangle)
        fi
        # SwiftPM does not know the order file is an input of the link: a newer one removes the broker, relinked then.
        if [ "$product" = lifebusd ] && [ "$lifebus_root/scripts/lifebusd.order" -nt "$scratch/release/lifebusd" ]; then
            rm -f "$scratch/release/lifebusd"
        fi
        # A failed build must stop its caller, not leave it measuring or installing the last binary that built.
        swift build -c release --static-swift-stdlib --scratch-path "$scratch" "${lifebus_release_compile_flags[@]}" \
            "${flags[@]}" "${extra[@]}" --product "$product" >/dev/null || return 1
    done
    swift build -c release --static-swift-stdlib --scratch-path "$scratch" "${lifebus_release_compile_flags[@]}" \
        "${flags[@]}" --show-bin-path
}
