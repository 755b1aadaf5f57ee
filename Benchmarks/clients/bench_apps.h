// The app-side modes of bench_client (fire, fanout, journal): see bench_apps.c.
#pragma once

// Runs one app-side mode; argv[1] is the mode. Returns the process's exit status.
int bench_apps_main(int argc, char **argv);
