#!/usr/bin/env bash
# Installs the Debian packages the tests need when they are missing: Chromium for the end-to-end tests,
# gnome-keyring + dbus for the real OS keyring, ffmpeg for audio/video robots, OpenSSH for SFTP, Perl for
# ExifTool (exiftool-vendored runs the bundled Perl ExifTool: file metadata), pyftpdlib for FTP,
# poppler-utils for PDF pages, espeak-ng for /text/speak, tesseract-ocr for OCR. Needs root (or sudo) and apt.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need+=(gnome-keyring)
command -v dbus-run-session >/dev/null 2>&1 || need+=(dbus)
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
command -v perl >/dev/null 2>&1 || need+=(perl)
# A real SFTP server for the storage robot's tests (started on loopback by the tests themselves).
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v ssh-keygen >/dev/null 2>&1 || need+=(openssh-client)
# A real FTP server for /ftp/store and /ftp/import's tests (pyftpdlib, run by Debian's own Python 3).
/usr/bin/python3 -c 'import pyftpdlib' >/dev/null 2>&1 || need+=(python3-pyftpdlib)
# poppler's pdftoppm draws a PDF's pages (/file/preview's "page" strategy).
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
# /text/speak's voice (espeak-ng, ~1 MB; the media robots' tests speak with it).
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
# /document/ocr and /image/ocr read text with Tesseract (its English data comes with it).
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
# OCR reads every language of the vendor's list installed (German, French, Spanish: under 1 MB each; the test reads German).
for lang in deu fra spa; do
  tesseract --list-langs 2>/dev/null | grep -qx "$lang" || need+=("tesseract-ocr-$lang")
done
[ ${#need[@]} -eq 0 ] && exit 0
echo "Installing system packages: ${need[*]}"
sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; else
    echo "Missing system packages (${need[*]}) and no root to install them: apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" libsecret-1-0 >/dev/null
