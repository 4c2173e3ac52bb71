#!/bin/bash
# Installs the Debian 12 packages gradstep builds with (clang and its sanitizer/libFuzzer runtime
# for `make fuzz`; for packaging: rsvg-convert renders the icons, help2man writes the man page,
# dpkg-dev and file let CPack derive the .deb's Depends, desktop-file-utils and appstream validate
# the desktop entry and metadata; openmpi-bin and libopenmpi-dev run data-parallel scripts and
# their tests), and does nothing when all are present.
set -euo pipefail
PKGS="cmake ninja-build g++ pkg-config libeigen3-dev catch2 libopenblas-dev python3-dev pybind11-dev python3-numpy python3-protobuf python3-pil libgraphviz-dev graphviz clang libclang-rt-14-dev qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libgl-dev libglx-dev libxkbcommon-dev fonts-dejavu-core xvfb xauth librsvg2-bin help2man dpkg-dev file desktop-file-utils appstream openmpi-bin libopenmpi-dev"
missing=()
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
