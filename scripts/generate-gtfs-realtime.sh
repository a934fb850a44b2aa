#!/bin/sh
# Regenerates the protobuf-c code of the CGTFSRealtime target from gtfs-realtime.proto
# (google/transit, Apache-2.0). `make gtfs-realtime` runs it; a TransitTests test runs it into a
# temporary directory and checks the committed files are what it makes.
#
# Usage: scripts/generate-gtfs-realtime.sh [OUTPUT_DIR]   (default: Sources/CGTFSRealtime)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
source_dir=$root/Sources/CGTFSRealtime
out=${1:-$source_dir}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Run from the proto's folder so the generated code names it without a path.
(cd "$source_dir" && protoc-c --c_out="$work" gtfs-realtime.proto)

compiler=$(protoc-c --version | head -n 1)
stamp="/* Made by scripts/generate-gtfs-realtime.sh (protoc-c --c_out=. gtfs-realtime.proto, $compiler).
 * Do not edit: change the script or the proto and run \`make gtfs-realtime\`. */"
mkdir -p "$out/include"
{ printf '%s\n' "$stamp"; cat "$work/gtfs-realtime.pb-c.c"; } > "$out/gtfs-realtime.pb-c.c"
{ printf '%s\n' "$stamp"; cat "$work/gtfs-realtime.pb-c.h"; } > "$out/include/gtfs-realtime.pb-c.h"
