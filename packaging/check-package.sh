#!/bin/bash
# `make package-check`: builds the Debian package from an existing build directory (the one
# `make test` built), checks its metadata, installs it with apt as a user would, runs the
# installed program from another directory (--version, the default sample headless, the window
# offscreen), then removes it and checks that nothing stays behind. Needs root (or sudo) for apt;
# an installed gradstep package is replaced and then removed.
# usage: packaging/check-package.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(realpath "${1:-build}")
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive

fail() { echo "package-check: $*" >&2; exit 1; }
step() { printf 'package-check: %s\n' "$*"; }

VERSION=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
[ -n "$VERSION" ] || fail "no project version in $BUILD/CMakeCache.txt: build first (make build)"
WORK=$(mktemp -d)
installed=0
cleanup() {
    if [ "$installed" -eq 1 ]; then
        $SUDO apt-get remove -y -qq gradstep >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
chmod 755 "$WORK" # apt's _apt user reads the .deb from here

step "building the package (cpack, version $VERSION)"
rm -rf "$BUILD/package"
cpack --config "$BUILD/CPackConfig.cmake" -B "$BUILD/package" >"$WORK/cpack.log" 2>&1 \
    || { cat "$WORK/cpack.log"; fail "cpack failed"; }
debs=("$BUILD"/package/gradstep_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one gradstep_*.deb in $BUILD/package"
DEB="$WORK/$(basename "${debs[0]}")"
cp "${debs[0]}" "$DEB"
chmod 644 "$DEB"

step "checking $(basename "$DEB")"
[ "$(dpkg-deb -f "$DEB" Version)" = "$VERSION-1" ] || fail "package version is not $VERSION-1"
depends=$(dpkg-deb -f "$DEB" Depends)
for needed in python3-numpy python3-protobuf python3-pil libpython3.11 libqt6widgets6 libgvc6 libopenblas0; do
    [[ ", $depends" == *", $needed"* ]] || fail "Depends lacks $needed: $depends"
done
dpkg-deb -x "$DEB" "$WORK/root"
root="$WORK/root/usr"
# Hints pass: the three categories the menu should list it under include two main categories.
desktop="$root/share/applications/gradstep.desktop"
issues=$(desktop-file-validate "$desktop" 2>&1 | grep -v ': hint: ' || true)
[ -z "$issues" ] || fail "gradstep.desktop: $issues"
grep -q '^MimeType=' "$desktop" && fail "gradstep.desktop claims MIME types"
appstreamcli validate-tree --no-net "$WORK/root" >"$WORK/appstream.log" 2>&1 \
    || { cat "$WORK/appstream.log"; fail "AppStream validation failed"; }
grep -q "<release version=\"$VERSION\"" "$root/share/metainfo/"*.metainfo.xml \
    || fail "the AppStream release is not $VERSION"
for size in 16 22 24 32 48 64 128 256; do
    [ -s "$root/share/icons/hicolor/${size}x${size}/apps/gradstep.png" ] || fail "no ${size}px icon"
done
[ -s "$root/share/icons/hicolor/scalable/apps/gradstep.svg" ] || fail "no scalable icon"
man=$(zcat "$root/share/man/man1/gradstep.1.gz")
[[ "$man" == *"\"gradstep $VERSION\""* ]] || fail "the man page does not carry version $VERSION"
for command in gui run debug compare export demo ops; do
    grep -qx "$command" <<<"$man" || fail "the man page does not list the command '$command'"
done
for command in gui run debug compare export demo; do
    [[ "$man" == *".SS \"gradstep $command\""* ]] || fail "the man page lacks '$command' options"
done
for option in '\-\-version' '\-\-steps' '\-\-screenshot' '\-\-break' '\-\-what' '\-\-graph'; do
    [[ "$man" == *"$option"* ]] || fail "the man page lacks the option $option"
done
samples="$root/share/gradstep/samples"
[ -s "$samples/lenet5_digits.py" ] && [ -s "$samples/data/digits-train-images-idx3-ubyte" ] \
    || fail "the default sample or its data is missing"
# grep without -q reads to the end: an early exit would fail readelf on SIGPIPE under pipefail.
readelf -d "$root/bin/gradstep" | grep -E 'RPATH|RUNPATH' >/dev/null && fail "the binary carries an RPATH"
for tree in "$(pwd)" "$BUILD"; do
    grep -qF "$tree" "$root/bin/gradstep" && fail "the binary holds the path $tree"
done

step "installing with apt"
installed=1
$SUDO apt-get install -y -qq "$DEB" >"$WORK/install.log" 2>&1 \
    || { cat "$WORK/install.log"; fail "apt-get install failed"; }
[ "$(command -v gradstep)" = /usr/bin/gradstep ] || fail "gradstep is not /usr/bin/gradstep on PATH"

# The installed program, run from an empty directory so nothing can come from this tree.
mkdir "$WORK/elsewhere"
cd "$WORK/elsewhere"
step "gradstep --version"
printed=$(gradstep --version)
[ "$printed" = "gradstep $VERSION" ] || fail "gradstep --version printed '$printed'"
step "gradstep run /usr/share/gradstep/samples/lenet5_digits.py --steps 1"
gradstep run /usr/share/gradstep/samples/lenet5_digits.py --steps 1 >"$WORK/run.log" 2>&1 \
    || { cat "$WORK/run.log"; fail "the default sample failed"; }
grep -q 'stopped after step 1' "$WORK/run.log" \
    || { cat "$WORK/run.log"; fail "the sample ran no training step"; }
step "gradstep gui --screenshot (offscreen, the default sample)"
mkdir -m 700 "$WORK/xdg"
QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$WORK/xdg" gradstep gui --screenshot "$WORK/gui.png" \
    >"$WORK/gui.log" 2>&1 || { cat "$WORK/gui.log"; fail "the window failed"; }
# A real picture: 1600x1000 as `gui --screenshot` sizes it, and far from one flat colour (after
# PNG's row filters a flat image is nearly all zero bytes and compresses to a few kB).
python3 - "$WORK/gui.png" <<'EOF' || fail "the screenshot is not a picture of the window"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, size = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        size = struct.unpack(">II", body[:8])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
busy = 1 - raw.count(0) / len(raw)
print(f"package-check: screenshot {size[0]}x{size[1]}, {len(data) // 1024} kB, "
      f"{busy:.0%} non-zero filtered bytes")
assert size == (1600, 1000), f"size {size}"
assert len(data) > 40000 and busy > 0.02, "nearly blank"
EOF
cd - >/dev/null

step "removing with apt"
$SUDO apt-get remove -y -qq gradstep >"$WORK/remove.log" 2>&1 \
    || { cat "$WORK/remove.log"; fail "apt-get remove failed"; }
installed=0
[ ! -e /usr/bin/gradstep ] || fail "/usr/bin/gradstep is still there after removal"
[ ! -e /usr/share/gradstep ] || fail "/usr/share/gradstep is still there after removal"
dpkg -s gradstep >/dev/null 2>&1 && fail "dpkg still lists gradstep"
step "ok: $(basename "$DEB") (Depends: $depends)"
