#!/usr/bin/env bash
# check-sections.sh IMAGE.elf SECTION=ADDRESS_PREFIX...
# Passes when every listed section exists in IMAGE and its address (0x + 8 hex
# digits) starts with the given prefix, e.g. .isr_vector=0x08000000.
set -euo pipefail
image=$1
shift
readelf=${READELF:-arm-none-eabi-readelf}
table=$("$readelf" -SW "$image")
status=0
for spec in "$@"; do
  section=${spec%%=*}
  prefix=${spec#*=}
  address=$(awk -v s="$section" '{ for (i = 1; i <= NF; ++i) if ($i == s) { print "0x" $(i + 2); exit } }' <<<"$table")
  if [[ -z $address ]]; then
    echo "FAIL: $section missing in $image"
    status=1
  elif [[ ${address,,} != ${prefix,,}* ]]; then
    echo "FAIL: $section at $address, expected $prefix..."
    status=1
  else
    echo "ok: $section at $address"
  fi
done
exit $status
