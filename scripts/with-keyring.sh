#!/usr/bin/env bash
# Runs a command with a real OS keyring (Secret Service): inside a private D-Bus session with
# gnome-keyring unlocked, unless a session bus is already there (a desktop session has one).
# ASSEMBLYLINE_KEYRING_HOME, when set, holds the keyring files instead of ~/.local/share: the tests use
# a fresh one so that a keyring made earlier with another password can never make them fail.
set -euo pipefail
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || ! command -v dbus-run-session >/dev/null 2>&1 || ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  exec "$@"
fi
if [ -n "${ASSEMBLYLINE_KEYRING_HOME:-}" ]; then
  mkdir -p "$ASSEMBLYLINE_KEYRING_HOME"
  export XDG_DATA_HOME="$ASSEMBLYLINE_KEYRING_HOME"
fi
exec dbus-run-session -- bash -c 'echo "${ASSEMBLYLINE_KEYRING_PASSWORD:-assemblyline}" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"' keyring "$@"
