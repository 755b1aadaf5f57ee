#!/bin/sh
# A scenario app without Swift: `lifebus subscribe` as the app's process, adopting scenes (--scenes) when the broker's
# profile has them (ios13+) and the app-delegate life cycle under ios3/ios4/ios7, as an app built with a scene
# manifest runs on an iOS before 13. Its arguments are subscribe's; under an old profile the scene-only ones
# (--multiple-scenes, --restoration JSON) are left out. $LIFEBUS is the `lifebus` it runs, for its hooks' marks:
# the one this package built, else the one on PATH.
LIFEBUS=$(dirname "$0")/../../.build/debug/lifebus
[ -x "$LIFEBUS" ] || LIFEBUS=lifebus
export LIFEBUS
if "$LIFEBUS" status --json | grep -Eq '"profile" *: *"ios(3|4|7)"'; then
    for argument in "$@"; do
        shift
        case $skip$argument in
        --multiple-scenes) ;;
        --restoration) skip=yes ;;
        yes*) skip= ;;
        *) set -- "$@" "$argument" ;;
        esac
    done
    exec "$LIFEBUS" subscribe "$@"
fi
exec "$LIFEBUS" subscribe --scenes "$@"
