#!/usr/bin/env bash
# Runs a command with a real OS keyring (Secret Service): inside a private D-Bus session with
# gnome-keyring unlocked, unless a session bus is already there (a desktop session has one).
set -euo pipefail
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || ! command -v dbus-run-session >/dev/null 2>&1 || ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  exec "$@"
fi
exec dbus-run-session -- bash -c 'echo "${ASSEMBLYLINE_KEYRING_PASSWORD:-assemblyline}" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"' keyring "$@"
